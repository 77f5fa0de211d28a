/**
 * The child process of pglite-init.ts: creates the server's PGlite database (initdb, migrations,
 * demo seed), closes it, tells the parent, then draws the seeded products' demo images into the
 * upload directory and exits. Configured by the same environment as the server.
 */
import path from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../config.ts';
import { loggerOptions } from '../lib/logging.ts';
import { createLocalUploadStore, diskUploadsDir } from '../modules/uploads/upload-store.ts';
import { openDatabase } from './client.ts';
import { migrate } from './migrate.ts';
import type { PgliteInitMessage } from './pglite-init.ts';
import { fillDemoImages, referencedDemoImageKeys, withDemoImages } from './seed/demo-images.ts';
import { seedDatabase } from './seed/index.ts';

const send = (m: PgliteInitMessage) => new Promise<void>((resolve) => process.send?.(m, () => resolve()) ?? resolve());

async function run() {
  const config = loadConfig();
  const logOptions = loggerOptions(config.logLevel, undefined, config.logFormat);
  const log = logOptions.stream ? pino(logOptions, logOptions.stream) : pino(logOptions);
  const database = await openDatabase({ pgliteDir: path.join(config.dataDir, 'pglite'), preparedStatements: false });
  let referenced = new Set<string>();
  try {
    await migrate(database);
    await seedDatabase(database.db, config, log);
    if (config.seed.demoData) {
      referenced = await referencedDemoImageKeys(database.db);
    }
  } finally {
    await database.close();
  }
  await send({ ready: true });
  if (referenced.size) {
    let stopped = false;
    process.once('SIGTERM', () => { stopped = true; });
    await fillDemoImages(withDemoImages(createLocalUploadStore(diskUploadsDir(config.dataDir))), referenced, () => stopped, log);
  }
}

run().then(
  () => process.exit(0),
  async (err: unknown) => {
    console.error(err);
    await send({ error: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  },
);
