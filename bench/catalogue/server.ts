/**
 * The shop server for the catalogue benchmark, run as a child process so that the load generator
 * does not share its event loop: opens the database (PostgreSQL URL or in-memory PGlite), migrates,
 * generates the products, builds the real app with buildApp, listens on 127.0.0.1 and talks to
 * the parent over IPC (the ceiling is measured by ../lib/ceiling.ts, in its own process).
 *
 * Messages in:  { type: 'rss', id } asks for the resident set size.
 * Messages out: { type: 'ready', port, generateMs, samples } and { type: 'rss', id, rss }.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config.ts';
import { openDatabase } from '../../server/src/db/client.ts';
import { migrate } from '../../server/src/db/migrate.ts';
import { generateProducts } from './generate.ts';

interface Options { databaseUrl?: string; products: number }

async function main() {
  const opts = JSON.parse(process.env.BENCH_SERVER_OPTIONS ?? '{}') as Options;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-bench-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    PUBLIC_URL: 'http://127.0.0.1',
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0001',
    DATA_DIR: dataDir,
    SEED_DEMO_DATA: 'false',
    LOG_LEVEL: 'warn',
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
  });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: 'memory://', poolSize: config.databasePoolSize });
  await migrate(database);
  const started = Date.now();
  await generateProducts(database, opts.products);
  const generateMs = Date.now() - started;

  const app = await buildApp({ config, database });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  const slugs = await database.query<{ slug: string }>(`SELECT slug FROM products ORDER BY id LIMIT 1000 OFFSET ${Math.floor(opts.products / 3)}`);
  process.on('message', (msg: { type: string; id?: number }) => {
    if (msg.type === 'rss') process.send?.({ type: 'rss', id: msg.id, rss: process.memoryUsage().rss });
  });
  process.on('disconnect', () => {
    void app.close().then(() => database.close()).finally(() => process.exit(0));
  });
  process.send?.({ type: 'ready', port, generateMs, samples: { slugs: slugs.map((s) => s.slug), kind: database.kind } });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
