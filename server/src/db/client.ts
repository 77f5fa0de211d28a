import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import v8 from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { prepareRepeatedPgliteQueries } from './pglite-prepared.ts';
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
  /**
   * Runs `fn` in one transaction on one connection (migrations, raw locking work). Not bounded by
   * `queryTimeoutSeconds` (maintenance: a migration, a wait for another instance's start-up lock);
   * `db`, `exec`, `query` and `ping` are.
   */
  rawTransaction<T>(fn: (tx: RawExecutor) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: the data directory as a tarball (what pgliteLoadDataDir takes). */
  dumpDataDir?(): Promise<Blob>;
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
  /**
   * Run parameterised queries as named prepared statements, parsed and planned once per connection
   * (default true; on PGlite see pglite-prepared.ts). Turn off behind a pooler in transaction mode that does not
   * track prepared statements (pgbouncer before 1.21, or without max_prepared_statements).
   */
  preparedStatements?: boolean;
  /**
   * PostgreSQL only: a new connection that is not established within this many seconds fails
   * (default 5), so requests during a database outage fail fast (503) instead of queueing.
   */
  connectTimeoutSeconds?: number;
  /**
   * PostgreSQL only: the bound on every query of the pool that serves requests
   * (DATABASE_QUERY_TIMEOUT_SECONDS; unset or 0 = none, the default, which maintenance uses:
   * migrations run through `rawTransaction`, backups and restores open their own database without it).
   * Each connection gets PostgreSQL's `statement_timeout` (this) and `lock_timeout` (half of it), so
   * the server stops the work and a lock held elsewhere fails the statement instead of queueing it;
   * and node-postgres's `query_timeout` (this + 1 s), which fails a query whose connection went
   * silent (packets accepted, never answered) and then ends that connection so the pool replaces it.
   * The errors (57014, 55P03, "Query read timeout", then "Connection terminated") answer 503
   * DATABASE_UNAVAILABLE (lib/http-errors.ts).
   */
  queryTimeoutSeconds?: number;
  /** PGlite only: PostgreSQL's shared_buffers (default PGLITE_SHARED_BUFFERS; see pgliteWasmModule). */
  pgliteSharedBuffers?: string;
  /**
   * PGlite only: start from this data directory (a tarball from PGlite's dumpDataDir) instead of an
   * empty one. The tests start each database from one migrated template (test/global-setup.ts).
   */
  pgliteLoadDataDir?: Blob;
}

/** At most this many statements are prepared per connection; later new texts run unprepared. */
export const MAX_PREPARED_PER_CONNECTION = 1_000;

type QueryConfigLike = { text?: unknown; values?: unknown; name?: unknown };

/** Statement names by SQL text, shared by every connection (bounded; a miss only costs a digest). */
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `q${createHash('sha1').update(text).digest('base64url')}`;
    if (statementNames.size >= 4 * MAX_PREPARED_PER_CONNECTION) statementNames.clear();
    statementNames.set(text, name);
  }
  return name;
}

/**
 * Makes every parameterised query on `client` a named prepared statement: the name is a digest of
 * the SQL text, so the same text always maps to the same statement and a different text can never
 * reuse another's name. node-postgres prepares a name once per connection and then only binds and
 * executes it, which skips PostgreSQL's parse and plan work on every repeat (the bulk of a cheap
 * query's cost). Queries without parameters (transaction control, multi-statement migrations) run
 * as before. The number of statements per connection is bounded.
 */
function prepareRepeatedQueries(client: pg.PoolClient): void {
  const prepared = new Set<string>();
  const original = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const [first, second] = args;
    // The forms node-postgres accepts: (text, values?, cb?) and (config, values?, cb?).
    let base: QueryConfigLike | undefined;
    if (typeof first === 'string') base = { text: first };
    else if (first && typeof first === 'object' && !('submit' in first)) base = first as QueryConfigLike;
    const values = Array.isArray(second) ? second : base?.values;
    if (base && typeof base.text === 'string' && base.name == null && Array.isArray(values) && values.length > 0) {
      const name = statementName(base.text);
      if (prepared.has(name) || prepared.size < MAX_PREPARED_PER_CONNECTION) {
        prepared.add(name);
        return original({ ...base, values, name }, ...args.slice(Array.isArray(second) ? 2 : 1));
      }
    }
    return original(...args);
  };
}

/**
 * The embedded database's buffer cache. The shop's PGlite database is a few MB to a few tens of MB
 * (10k products); blocks outside the cache are read from the data files, which the OS keeps in its
 * page cache, outside the process.
 */
export const PGLITE_SHARED_BUFFERS = '32MB';

/** The setting PGlite 0.3 passes on PostgreSQL's command line, as it is stored in pglite.wasm. */
const PGLITE_STOCK_SHARED_BUFFERS = Buffer.from('shared_buffers=128MB\0');
const pgliteModules = new Map<string, Promise<WebAssembly.Module | undefined>>();

/**
 * PGlite's WebAssembly module with PostgreSQL's shared_buffers set to `sharedBuffers`, compiled once
 * per process. PGlite 0.3 starts PostgreSQL with `-c shared_buffers=128MB` fixed in its binary (its
 * command line overrides postgresql.conf and ALTER SYSTEM, and startParams only came with 0.4), and
 * its build allocates and zeroes the whole pool at start: 128 MB of resident memory whatever the
 * size of the database, about half of the idle shop. The setting is the NUL-terminated string
 * `shared_buffers=128MB` in the module's data; it is overwritten in place with a setting no longer
 * than it. When the string is not found exactly once (another PGlite build), the module is left to
 * PGlite (undefined) and its default applies.
 */
export function pgliteWasmModule(sharedBuffers: string): Promise<WebAssembly.Module | undefined> {
  let compiled = pgliteModules.get(sharedBuffers);
  if (!compiled) {
    compileWasmWithLiftoffOnly();
    compiled = (async () => {
      const setting = Buffer.from(`shared_buffers=${sharedBuffers}\0`);
      if (!/^\d+(kB|MB)$/.test(sharedBuffers) || setting.length > PGLITE_STOCK_SHARED_BUFFERS.length) {
        throw new Error(`PGlite shared_buffers: a size in kB or MB of at most 5 characters, e.g. 32MB (got ${sharedBuffers})`);
      }
      const pgliteDir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
      const bytes = await readFile(path.join(pgliteDir, 'pglite.wasm'));
      const at = bytes.indexOf(PGLITE_STOCK_SHARED_BUFFERS);
      if (at < 0 || bytes.indexOf(PGLITE_STOCK_SHARED_BUFFERS, at + 1) >= 0) return undefined;
      bytes.fill(0, at, at + PGLITE_STOCK_SHARED_BUFFERS.length);
      setting.copy(bytes, at);
      return WebAssembly.compile(bytes);
    })();
    pgliteModules.set(sharedBuffers, compiled);
  }
  return compiled;
}

/**
 * V8 runs WebAssembly first as its baseline compiler (Liftoff) makes it, then compiles each function
 * that runs often again with its optimizing compiler (TurboFan, "tier-up"), in background threads.
 * One optimizing compile of one of PostgreSQL's large functions takes up to 100 MB of compiler memory
 * (heaptrack: register allocation of a huge function), taken with malloc on a worker thread; freed,
 * it stays in that thread's malloc arena, so the tier-up left 60-140 MB of the idle shop's resident
 * memory behind it. The optimized code barely shows in the shop's speed: PGlite's own JavaScript (the
 * wire protocol, row parsing) and the HTTP stack cost more than PostgreSQL's code, and compiling
 * competes with serving on a small machine (bench/embedded.ts). So PGlite runs as Liftoff compiles it:
 * V8's `--liftoff-only` for the process, set before the module is compiled (PGlite is the only
 * WebAssembly this server runs). `--no-wasm-tier-up` would not do: with dynamic tiering (V8 11) hot
 * functions are still optimized, and only flags read when a function is compiled take effect here.
 */
let liftoffOnly = false;
function compileWasmWithLiftoffOnly(): void {
  if (liftoffOnly) return;
  liftoffOnly = true;
  v8.setFlagsFromString('--liftoff-only');
}

/** node-postgres's error for a query unanswered within `query_timeout`. */
const QUERY_READ_TIMEOUT_MESSAGE = 'Query read timeout';
/** The client-side bound outlasts the server's statement_timeout by this much, so a slow query is cancelled by the server (connection kept) and only a silent connection hits it. */
const QUERY_TIMEOUT_MARGIN_MS = 1000;
/** The longest timer Node keeps (about 24.8 days): "no client-side bound" for one query. */
const NO_QUERY_TIMEOUT_MS = 2_147_483_647;

/** The pool settings that bound each query (DatabaseOptions.queryTimeoutSeconds); none for 0/unset. */
export function queryTimeoutSettings(seconds: number | undefined): Pick<pg.PoolConfig, 'statement_timeout' | 'lock_timeout' | 'query_timeout'> {
  if (!seconds || seconds <= 0) return {};
  const ms = Math.max(1, Math.round(seconds * 1000));
  return { statement_timeout: ms, lock_timeout: Math.max(1, Math.round(ms / 2)), query_timeout: ms + QUERY_TIMEOUT_MARGIN_MS };
}

/**
 * A query that hit `query_timeout` leaves its connection waiting for an answer that may never come
 * (node-postgres keeps it as the active query): the connection is ended (its socket destroyed), so
 * whatever is queued behind it fails at once ("Connection terminated", a 503) instead of waiting its
 * own timeout (drizzle's ROLLBACK after a failed statement in a transaction), and the pool drops it
 * on release instead of lending it to the next request.
 */
function endOnQueryReadTimeout(client: pg.PoolClient): void {
  const original = client.query.bind(client) as (...args: unknown[]) => unknown;
  const check = (err: unknown) => {
    if (err instanceof Error && err.message === QUERY_READ_TIMEOUT_MESSAGE) client.end().catch(() => undefined);
  };
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (err: unknown, res: unknown) => {
        check(err);
        (callback as (e: unknown, r: unknown) => void)(err, res);
      };
    }
    const result = original(...args);
    if (result && typeof (result as Promise<unknown>).then === 'function') (result as Promise<unknown>).then(undefined, check);
    return result;
  };
  // A connection that fails while lent out (keepalive gave up, the server went away) fails its
  // queries; without a listener its 'error' event would also be thrown (the pool listens only while idle).
  client.on('error', () => undefined);
}

// node-postgres returns numeric/bigint as strings; counts are safe as numbers here.
pg.types.setTypeParser(20, (v) => Number(v));

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const timeouts = queryTimeoutSettings(opts.queryTimeoutSeconds);
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 20,
      connectionTimeoutMillis: Math.round((opts.connectTimeoutSeconds ?? 5) * 1000),
      // A peer that vanished without closing (host down, a dropped route) is noticed on idle connections too.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      ...timeouts,
    });
    pool.on('error', () => {
      /* idle client errors are surfaced by the next query */
    });
    if (opts.preparedStatements !== false) pool.on('connect', prepareRepeatedQueries);
    if (timeouts.query_timeout) pool.on('connect', endOnQueryReadTimeout);
    /** In rawTransaction (maintenance: migrations, the start-up lock, backups) no query is bounded. */
    const unbounded = (text: string, values?: unknown[]) =>
      timeouts.query_timeout ? { text, ...(values ? { values } : {}), query_timeout: NO_QUERY_TIMEOUT_MS } : { text, ...(values ? { values } : {}) };
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
          await conn.query(unbounded('BEGIN'));
          // Maintenance is not bounded by the request timeouts (reset by COMMIT/ROLLBACK): a long
          // migration, or an instance waiting for another's migration lock, must not be cancelled.
          if (timeouts.statement_timeout) await conn.query(unbounded('SET LOCAL statement_timeout = 0; SET LOCAL lock_timeout = 0'));
          const result = await fn({
            exec: async (sqlText) => {
              await conn.query(unbounded(sqlText));
            },
            query: async <T>(sqlText: string, params: unknown[] = []) => (await conn.query(unbounded(sqlText, params))).rows as T[],
          });
          await conn.query(unbounded('COMMIT'));
          return result;
        } catch (err) {
          await conn.query(unbounded('ROLLBACK')).catch(() => undefined);
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
  const wasmModule = await pgliteWasmModule(opts.pgliteSharedBuffers ?? PGLITE_SHARED_BUFFERS);
  const client = await PGlite.create({
    dataDir,
    extensions: { pg_trgm },
    ...(wasmModule ? { wasmModule } : {}),
    ...(opts.pgliteLoadDataDir ? { loadDataDir: opts.pgliteLoadDataDir } : {}),
  });
  if (opts.preparedStatements !== false) prepareRepeatedPgliteQueries(client);
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
    dumpDataDir: async () => client.dumpDataDir('none'),
  };
}
