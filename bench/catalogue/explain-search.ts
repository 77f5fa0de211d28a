/**
 * Per-query evidence for the text-search route (issue 12): builds the real app over a generated
 * catalogue, sends each search URL once (no-cache), records every SQL statement the request ran
 * (text + parameters), then prints EXPLAIN (ANALYZE, BUFFERS) of each statement, both as a
 * one-off (custom) plan and as the plan a named prepared statement settles on after repeated
 * executions (what the server's prepared statements do on PostgreSQL).
 *
 *   node --import tsx bench/catalogue/explain-search.ts [--products=100000] [--url=/api/products/search?query=tent] ...
 *   env: BENCH_DATABASE_URL (a scratch database is created and dropped there); without it, PGlite.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config.ts';
import { openDatabase } from '../../server/src/db/client.ts';
import { migrate } from '../../server/src/db/migrate.ts';
import { createScratchDatabase } from '../../server/src/db/scratch.ts';
import { generateProducts } from './generate.ts';

const arg = (name: string) => process.argv.filter((a) => a.startsWith(`--${name}=`)).map((a) => a.slice(name.length + 3));
const PRODUCTS = Number(arg('products')[0] ?? 100_000);
const ANALYZE = !process.argv.includes('--no-analyze');
const URLS = arg('url').length ? arg('url') : [
  '/api/products/search?query=wireless&page=1',
  '/api/products/search?query=wireless&page=2',
  '/api/products/search?query=leather%20wallet&page=1',
  '/api/products/search?query=leather%20wallet&page=2',
  '/api/products/search?query=tent&page=1',
  '/api/products/search?query=rechargeable&page=2',
  '/api/products/search?query=wireless&category=Audio&page=1',
  '/api/products/search?query=leather%20wallet&category=Audio&page=1',
  '/api/products/search?query=wireles%20hedphones&page=1',
];

async function main() {
  const baseUrl = process.env.BENCH_DATABASE_URL;
  const scratch = baseUrl ? await createScratchDatabase(baseUrl, 'shop_bench_explain') : undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-explain-'));
  const config = loadConfig({
    NODE_ENV: 'production', PUBLIC_URL: 'http://127.0.0.1', JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0001',
    DATA_DIR: dataDir, SEED_DEMO_DATA: 'false', LOG_LEVEL: 'warn', WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
  });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: 'memory://', poolSize: 2 });
  try {
    await migrate(database);
    await generateProducts(database, PRODUCTS);
    // Record statements: node-postgres Client.query, or PGlite query.
    const seen: Array<{ text: string; values: unknown[] }> = [];
    const record = (text: unknown, values: unknown) => {
      if (typeof text === 'string') seen.push({ text, values: Array.isArray(values) ? values : [] });
    };
    // Drizzle sends every statement through its client (the pg Pool, or the PGlite instance).
    const client = (database.db as unknown as { $client: { query: (...a: unknown[]) => unknown } }).$client;
    const original = client.query.bind(client);
    client.query = (...args: unknown[]) => {
      const [first, second] = args;
      if (typeof first === 'string') record(first, second);
      else if (first && typeof first === 'object' && 'text' in first) record((first as { text: unknown }).text, Array.isArray(second) ? second : (first as { values?: unknown }).values);
      return original(...args);
    };
    const app = await buildApp({ config, database });
    for (const url of URLS) {
      // Warm the counts (cached for seconds, as in the benchmark), then record one uncached request.
      await app.inject({ method: 'GET', url, headers: { 'cache-control': 'no-cache' } });
      seen.length = 0;
      const t0 = performance.now();
      const res = await app.inject({ method: 'GET', url, headers: { 'cache-control': 'no-cache' } });
      const ms = performance.now() - t0;
      const body = res.json() as { countProducts: number; pages: number; products: unknown[] };
      const statements = seen.splice(0);
      console.info(`\n##### ${url}: ${res.statusCode}, ${body.products?.length} products of ${body.countProducts}, ${statements.length} statement(s), ${ms.toFixed(1)} ms`);
      for (const s of statements) {
        console.info(`SQL: ${s.text}\nparams: ${JSON.stringify(s.values)}`);
        const opts = ANALYZE ? 'ANALYZE, BUFFERS' : 'COSTS';
        const custom = await database.query<Record<string, string>>(`EXPLAIN (${opts}) ${s.text}`, s.values);
        console.info(`-- one-off plan:\n${custom.map((r) => Object.values(r)[0]).join('\n')}`);
        if (database.kind === 'postgres' && s.values.length) {
          await database.rawTransaction(async (tx) => {
            await tx.exec(`PREPARE explain_me AS ${s.text}`);
            const lit = s.values.map((v) => (v === null ? 'null' : `'${String(v).replace(/'/g, "''")}'`)).join(', ');
            for (let i = 0; i < 6; i += 1) await tx.exec(`EXECUTE explain_me(${lit})`);
            const generic = await tx.query<Record<string, string>>(`EXPLAIN (${opts}) EXECUTE explain_me(${lit})`);
            console.info(`-- prepared plan after 6 executions:\n${generic.map((r) => Object.values(r)[0]).join('\n')}`);
            await tx.exec('DEALLOCATE explain_me');
          });
        }
      }
    }
    await app.close();
  } finally {
    await database.close();
    await scratch?.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
