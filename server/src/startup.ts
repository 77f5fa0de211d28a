import type { App } from './app.ts';
import type { Database } from './db/client.ts';
import { fillDemoImages, isDemoImageStore, referencedDemoImageKeys } from './db/seed/demo-images.ts';
import { seedDatabase } from './db/seed/index.ts';
import { diskUploadsDir, moveDiskUploads } from './modules/uploads/index.ts';

// Arbitrary constant (next to the migrations' lock) so instances starting together take turns.
const STARTUP_LOCK_KEY = 727_274_002;

/** Runs `fn` while holding a PostgreSQL advisory lock (on PGlite, one process: no lock needed). */
async function withStartupLock(database: Database, fn: () => Promise<void>): Promise<void> {
  if (database.kind !== 'postgres') return fn();
  await database.rawTransaction(async (tx) => {
    await tx.exec(`SELECT pg_advisory_xact_lock(${STARTUP_LOCK_KEY})`);
    await fn();
  });
}

/**
 * One-off work at start, after migrations: on PostgreSQL, move images uploaded to this instance's
 * disk (before the shop used the shared store) into the database; then seed an empty database.
 * Under an advisory lock, so a fleet starting at once seeds once.
 */
export async function runStartupTasks(app: App, database: Database): Promise<void> {
  const { config, uploads } = app.ctx;
  await withStartupLock(database, async () => {
    if (uploads.kind === 'database') {
      const moved = await moveDiskUploads(diskUploadsDir(config.dataDir), uploads);
      if (moved.moved || moved.alreadyStored) {
        app.log.info({ moved: moved.moved, alreadyStored: moved.alreadyStored }, 'moved uploads from disk into the database');
      }
      if (moved.conflicts.length) {
        app.log.warn({ count: moved.conflicts.length, dir: diskUploadsDir(config.dataDir) },
          'uploads on disk differ from the database copies with the same key; left on disk');
      }
    }
    await seedDatabase(database.db, config, app.log);
  });
}

/**
 * After the server is listening: draws the demo catalogue images that the seeded products show and
 * the upload store lacks, one at a time (a request for one of them meanwhile draws it at once), so
 * the store ends up holding every image (backups). Off the readiness path: a fresh start is ready
 * as soon as the data is seeded. Stopped at shutdown.
 */
export function fillDemoImagesAfterStart(app: App): void {
  const { config, uploads, db } = app.ctx;
  if (!config.seed.demoData || !isDemoImageStore(uploads)) return;
  let stopped = false;
  const run = (async () => {
    const referenced = await referencedDemoImageKeys(db);
    if (referenced.size) await fillDemoImages(uploads, referenced, () => stopped, app.log);
  })().catch((err: unknown) => app.log.error({ err }, 'drawing the demo catalogue images failed'));
  app.ctx.onClose.push(async () => {
    stopped = true;
    await run;
  });
}
