import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Creates a throwaway PostgreSQL database next to `baseUrl` (whose user may create databases) and
 * returns its URL and a `drop()` that removes it. Used by the tests and the benchmarks. With
 * `template` (a database name nobody is connected to), the new database is a copy of it.
 */
export async function createScratchDatabase(baseUrl: string, prefix = 'shop_scratch', template?: string): Promise<{ url: string; drop: () => Promise<void> }> {
  if (template !== undefined && !/^\w+$/.test(template)) throw new Error(`not a database name: ${template}`);
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
