/**
 * The shop server for the catalogue benchmark, run as a child process so that the load generator
 * does not share its event loop: opens the database (PostgreSQL URL or in-memory PGlite), migrates,
 * generates the products, builds the real app with buildApp, listens on 127.0.0.1 and talks to
 * the parent over IPC (the ceiling is measured by ../lib/ceiling.ts, in its own process).
 *
 * With `workers` > 1 (PostgreSQL and Redis only, as WEB_CONCURRENCY in production, see
 * server/src/cluster.ts): this process generates the catalogue, then forks that many node:cluster
 * workers, each a full app with its own pool, sharing one port; RSS is the sum over the workers.
 *
 * Messages in:  { type: 'rss', id } asks for the resident set size.
 * Messages out: { type: 'ready', port, generateMs, samples } and { type: 'rss', id, rss }.
 */
import cluster, { type Worker } from 'node:cluster';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config.ts';
import { openDatabase, type Database } from '../../server/src/db/client.ts';
import { migrate } from '../../server/src/db/migrate.ts';
import { users } from '../../server/src/db/schema.ts';
import { startSession } from '../../server/src/lib/auth.ts';
import { newId } from '../../server/src/lib/ids.ts';
import { createTokenSigner } from '../../server/src/lib/tokens.ts';
import { generateProducts } from './generate.ts';

interface Options { databaseUrl?: string; products: number; workers?: number; redisUrl?: string; webDist?: string; sessions?: number }

const opts = JSON.parse(process.env.BENCH_SERVER_OPTIONS ?? '{}') as Options;
const WORKERS = opts.workers ?? 1;

function benchConfig() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-bench-'));
  return loadConfig({
    NODE_ENV: 'production',
    PUBLIC_URL: 'http://127.0.0.1',
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0001',
    DATA_DIR: dataDir,
    SEED_DEMO_DATA: 'false',
    LOG_LEVEL: 'warn',
    WEB_DIST_DIR: opts.webDist ?? path.join(dataDir, 'no-web'),
    ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
    ...(opts.redisUrl ? { REDIS_URL: opts.redisUrl } : {}),
  });
}
const config = benchConfig();

async function startApp(database: Database) {
  const app = await buildApp({ config, database });
  // In a cluster worker, port 0 is one port shared by every worker (node:cluster).
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  return { app, port: typeof address === 'object' && address ? address.port : 0 };
}

const open = () => openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: 'memory://', poolSize: config.databasePoolSize });

async function prepareCatalogue(database: Database) {
  await migrate(database);
  const started = Date.now();
  await generateProducts(database, opts.products);
  const generateMs = Date.now() - started;
  const slugs = await database.query<{ slug: string }>(`SELECT slug FROM products ORDER BY id LIMIT 1000 OFFSET ${Math.floor(opts.products / 3)}`);
  // Signed-in shoppers (`sessions`): users with a live session each, created directly (the benchmark
  // measures pages, not sign-in); their access tokens go to the parent.
  const signer = createTokenSigner(config.jwtSecret, config.accessTokenTtlSeconds);
  const accessTokens: string[] = [];
  for (let i = 0; i < (opts.sessions ?? 0); i += 1) {
    const id = newId();
    await database.db.insert(users).values({ id, name: `Shopper ${i}`, email: `shopper${i}@bench.local`, passwordHash: 'not-used' });
    accessTokens.push((await startSession(database.db, { signer, refreshTokenTtlDays: 1 }, id)).accessToken);
  }
  return { generateMs, slugs: slugs.map((s) => s.slug), accessTokens };
}

async function single() {
  const database = await open();
  const { generateMs, slugs, accessTokens } = await prepareCatalogue(database);
  const { app, port } = await startApp(database);
  process.on('message', (msg: { type: string; id?: number }) => {
    if (msg.type === 'rss') process.send?.({ type: 'rss', id: msg.id, rss: process.memoryUsage().rss });
  });
  process.on('disconnect', () => {
    void app.close().then(() => database.close()).finally(() => process.exit(0));
  });
  process.send?.({ type: 'ready', port, generateMs, samples: { slugs, kind: database.kind, accessTokens } });
}

async function primary() {
  if (!opts.databaseUrl || !opts.redisUrl) throw new Error('--workers > 1 needs PostgreSQL and a Redis URL (BENCH_REDIS_URL), as WEB_CONCURRENCY does');
  const database = await open();
  const { generateMs, slugs, accessTokens } = await prepareCatalogue(database);
  await database.close();
  const workers: Worker[] = [];
  const ports = await Promise.all(Array.from({ length: WORKERS }, () => new Promise<number>((resolve, reject) => {
    const worker = cluster.fork();
    workers.push(worker);
    worker.once('exit', (code) => reject(new Error(`bench worker exited with ${code}`)));
    worker.on('message', (msg: { type: string; port?: number }) => {
      if (msg.type === 'listening') resolve(msg.port ?? 0);
    });
  })));
  if (new Set(ports).size !== 1) throw new Error(`workers listen on different ports: ${ports.join(', ')}`);
  const rssOf = (w: Worker) => new Promise<number>((resolve) => {
    const timer = setTimeout(() => resolve(0), 1500);
    const onMessage = (msg: { type: string; rss?: number }) => {
      if (msg.type !== 'rss') return;
      clearTimeout(timer);
      w.off('message', onMessage);
      resolve(msg.rss ?? 0);
    };
    w.on('message', onMessage);
    w.send({ type: 'rss' });
  });
  process.on('message', (msg: { type: string; id?: number }) => {
    if (msg.type !== 'rss') return;
    void Promise.all(workers.map(rssOf)).then((all) => process.send?.({ type: 'rss', id: msg.id, rss: all.reduce((a, b) => a + b, 0) }));
  });
  process.on('disconnect', () => {
    const exited = workers.map((w) => new Promise((r) => (w.isDead() ? r(null) : w.once('exit', r))));
    for (const w of workers) w.disconnect();
    void Promise.all(exited).finally(() => process.exit(0));
  });
  process.send?.({ type: 'ready', port: ports[0], generateMs, samples: { slugs, kind: 'postgres', accessTokens } });
}

async function worker() {
  const database = await open();
  const { app, port } = await startApp(database);
  process.on('message', (msg: { type: string }) => {
    if (msg.type === 'rss') process.send?.({ type: 'rss', rss: process.memoryUsage().rss });
  });
  process.on('disconnect', () => {
    void app.close().then(() => database.close()).finally(() => process.exit(0));
  });
  process.send?.({ type: 'listening', port });
}

const main = WORKERS <= 1 ? single : cluster.isPrimary ? primary : worker;
main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
