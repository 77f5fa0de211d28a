import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle; use cases accept `Db | Tx` through `Executor`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Executor = Db | Tx;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Runs raw multi-statement SQL (migrations). */
  exec(sqlText: string): Promise<void>;
  /** Runs one parameterised raw query. */
  query<T = Record<string, unknown>>(sqlText: string, params?: unknown[]): Promise<T[]>;
  /** Runs `fn` in one transaction on one connection (migrations, raw locking work). */
  rawTransaction<T>(fn: (tx: RawExecutor) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface RawExecutor {
  exec(sqlText: string): Promise<void>;
  query<T = Record<string, unknown>>(sqlText: string, params?: unknown[]): Promise<T[]>;
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  /** Directory for PGlite data; `undefined` (or 'memory://') keeps it in memory. */
  pgliteDir?: string | undefined;
  poolSize?: number;
}

// node-postgres returns numeric/bigint as strings; counts are safe as numbers here.
pg.types.setTypeParser(20, (v) => Number(v));

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 20 });
    pool.on('error', () => {
      /* idle client errors are surfaced by the next query */
    });
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      kind: 'postgres',
      db,
      exec: async (sqlText) => {
        await pool.query(sqlText);
      },
      query: async <T>(sqlText: string, params: unknown[] = []) => (await pool.query(sqlText, params)).rows as T[],
      rawTransaction: async (fn) => {
        const conn = await pool.connect();
        try {
          await conn.query('BEGIN');
          const result = await fn({
            exec: async (sqlText) => {
              await conn.query(sqlText);
            },
            query: async <T>(sqlText: string, params: unknown[] = []) => (await conn.query(sqlText, params)).rows as T[],
          });
          await conn.query('COMMIT');
          return result;
        } catch (err) {
          await conn.query('ROLLBACK').catch(() => undefined);
          throw err;
        } finally {
          conn.release();
        }
      },
      ping: async () => {
        await pool.query('select 1');
      },
      close: () => pool.end(),
    };
  }
  let dataDir: string | undefined;
  if (opts.pgliteDir && opts.pgliteDir !== 'memory://') {
    dataDir = path.resolve(opts.pgliteDir);
    mkdirSync(dataDir, { recursive: true });
  }
  const client = await PGlite.create({ dataDir, extensions: { pg_trgm } });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    exec: async (sqlText) => {
      await client.exec(sqlText);
    },
    query: async <T>(sqlText: string, params: unknown[] = []) => (await client.query<T>(sqlText, params)).rows,
    rawTransaction: (fn) =>
      client.transaction((tx) =>
        fn({
          exec: async (sqlText) => {
            await tx.exec(sqlText);
          },
          query: async <T>(sqlText: string, params: unknown[] = []) => (await tx.query<T>(sqlText, params)).rows,
        }),
      ),
    ping: async () => {
      await client.query('select 1');
    },
    close: () => client.close(),
  };
}
