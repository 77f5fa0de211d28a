import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase, PGLITE_SHARED_BUFFERS, pgliteWasmModule } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { initPgliteInChild, isFreshPgliteDir } from './db/pglite-init.ts';
import { claimPgliteDir, PgliteInUseError } from './db/pglite-lock.ts';
import { drainAndClose } from './modules/health/shutdown.ts';
import { installProcessFaultHandlers } from './lib/process-faults.ts';
import { fillDemoImagesAfterStart, runStartupTasks } from './startup.ts';
import cluster from 'node:cluster';
import path from 'node:path';
import { clusterPlan, runPrimary } from './cluster.ts';
import { demoAccountsInUse } from './db/seed/users.ts';
import { startBanner } from './start-banner.ts';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  // WEB_CONCURRENCY > 1 (PostgreSQL + Redis): this process only forks and watches the workers,
  // each of which runs the rest of main() as a full server on the shared port.
  const plan = clusterPlan(config);
  if (cluster.isPrimary) {
    if (plan.note) console.info(plan.note);
    if (plan.workers > 1) {
      runPrimary({ workers: plan.workers, shutdown: config.shutdown });
      return;
    }
  }
  const pgliteDir = path.join(config.dataDir, 'pglite');
  let releasePglite = () => {};
  if (!config.databaseUrl) {
    try {
      releasePglite = claimPgliteDir(pgliteDir, 'the shop server');
    } catch (err) {
      if (err instanceof PgliteInUseError) {
        console.error(err.message);
        process.exit(1);
      }
      throw err;
    }
  }
  // A fresh embedded database is prepared (and seeded) in a short-lived child process: see pglite-init.ts.
  // Meanwhile this process compiles PGlite's WebAssembly module, which it needs next.
  let init = null;
  if (!config.databaseUrl && isFreshPgliteDir(pgliteDir)) {
    const compiling = pgliteWasmModule(PGLITE_SHARED_BUFFERS).catch(() => undefined);
    init = await initPgliteInChild();
    await compiling;
  }
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir,
    poolSize: config.databasePoolSize,
    preparedStatements: config.databasePreparedStatements,
    connectTimeoutSeconds: config.databaseConnectTimeoutSeconds,
    // The pool that serves requests: every query bounded (migrations below run in rawTransaction, unbounded).
    queryTimeoutSeconds: config.databaseQueryTimeoutSeconds,
  });
  await migrate(database);
  const app = await buildApp({ config, database });
  // From here on an error nothing caught is logged and counted, and the shop keeps serving (a fault
  // during the start above still ends the process: see lib/process-faults.ts).
  installProcessFaultHandlers({ log: app.log });
  if (init) app.ctx.onClose.push(() => init.stop());
  await runStartupTasks(app, database);

  let closing = false;
  // SIGTERM (systemd, a rolling restart) drains for the balancer first; SIGINT (Ctrl-C) stops at once.
  const shutdown = async (signal: 'SIGTERM' | 'SIGINT') => {
    if (closing) return;
    closing = true;
    const drainSeconds = signal === 'SIGTERM' ? config.shutdown.drainSeconds : 0;
    app.log.info({ signal, drainSeconds }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('graceful shutdown timed out');
      releasePglite();
      process.exit(1);
    }, (drainSeconds + config.shutdown.timeoutSeconds) * 1000);
    force.unref();
    try {
      await drainAndClose(app, { drainSeconds }); // 503 on /api/live and /api/ready, wait, onDrain hooks, finish in-flight requests
      await database.close();
      releasePglite();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      releasePglite();
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ host: config.host, port: config.port });
  // Unless the child that prepared the database is drawing them already.
  if (!init?.drawing) fillDemoImagesAfterStart(app);
  const worker = cluster.isWorker ? `, worker ${cluster.worker?.id ?? '?'} pid ${process.pid}` : '';
  // The lines that are the same for every worker come from one of them.
  const printsShared = !cluster.isWorker || cluster.worker?.id === 1;
  const demoAccounts = printsShared && !config.isProduction
    ? await demoAccountsInUse(database.db).catch((err: unknown) => {
      app.log.warn({ err }, 'could not check the demo accounts');
      return [];
    })
    : [];
  const details = `database: ${database.kind}${database.kind === 'pglite' ? ` in ${config.dataDir}` : ''}${worker}`;
  for (const line of startBanner({ config, details, demoAccounts, printsShared })) console.info(line);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
