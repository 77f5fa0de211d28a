import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createScratchPostgres, TEST_DB } from './test-app.ts';

/**
 * Temporary folders and (on PostgreSQL) scratch databases for tests that make whole shops to back up
 * and restore into; `cleanUp()` removes everything it handed out.
 */
export function createScratchSpace() {
  const dirs: string[] = [];
  const drops: Array<() => Promise<void>> = [];
  return {
    tempDir(prefix: string): string {
      const dir = mkdtempSync(path.join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
    /** A new empty PostgreSQL database's URL, or undefined on PGlite (the shop then uses its data dir). */
    async newDatabaseUrl(): Promise<string | undefined> {
      if (TEST_DB !== 'postgres') return undefined;
      const scratch = await createScratchPostgres();
      drops.push(scratch.drop);
      return scratch.url;
    },
    async cleanUp(): Promise<void> {
      for (const drop of drops) await drop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}
