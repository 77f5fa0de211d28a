import { spawn } from 'node:child_process';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { RawExecutor } from '../db/client.ts';

/**
 * Runs pg_dump or pg_restore against `databaseUrl`. The password goes through PGPASSWORD, never on
 * the command line (where any user of the machine could read it).
 */
export async function runPgTool(
  tool: 'pg_dump' | 'pg_restore' | 'psql',
  /** undefined: no connection (pg_restore writing a script with -f). */
  databaseUrl: string | undefined,
  args: string[],
  binDir: string | undefined,
): Promise<void> {
  const url = databaseUrl ? new URL(databaseUrl) : undefined;
  const password = url ? decodeURIComponent(url.password) : '';
  if (url) url.password = '';
  const bin = binDir ? path.join(binDir, tool) : tool;
  const env = { ...process.env, ...(password ? { PGPASSWORD: password } : {}) };
  await new Promise<void>((resolve, reject) => {
    const child = spawn(bin, [...args, ...(url ? [`--dbname=${url.toString()}`] : [])], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('error', (err: NodeJS.ErrnoException) => {
      reject(err.code === 'ENOENT'
        ? new Error(`${tool} not found${binDir ? ` in ${binDir}` : ''}: install the PostgreSQL client tools of the server's major version (Debian: postgresql-client) or set PG_BIN_DIR`)
        : err);
    });
    child.on('exit', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${tool} failed (exit code ${code}): ${stderr.trim().split('\n').slice(-5).join(' | ')}`));
    });
  });
}

/** Opens an embedded database directory (or loads a dumped one into it) with the shop's extensions. */
export function openPglite(dataDir: string, loadDataDir?: Blob): Promise<PGlite> {
  return PGlite.create({ dataDir, extensions: { pg_trgm }, ...(loadDataDir ? { loadDataDir } : {}) });
}

/** Runs `fn` in one PGlite transaction through the raw-executor interface the stats code uses. */
export function pgliteTransaction<T>(client: PGlite, fn: (tx: RawExecutor) => Promise<T>): Promise<T> {
  return client.transaction((tx) =>
    fn({
      exec: async (sqlText) => { await tx.exec(sqlText); },
      query: async <R>(sqlText: string, params: unknown[] = []) => (await tx.query<R>(sqlText, params)).rows,
    }),
  );
}
