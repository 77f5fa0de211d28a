import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The embedded database's data directory is opened by one process at a time; this file says which. */
export const pgliteLockFile = (pgliteDir: string) => `${path.resolve(pgliteDir)}.pid`;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class PgliteInUseError extends Error {}

/**
 * Claims the PGlite directory for this process, or throws when a live process holds it: PGlite has
 * no lock of its own, and two processes writing one data directory corrupt it. A claim left by a
 * process that died is taken over. Returns the release function.
 */
export function claimPgliteDir(pgliteDir: string, purpose: string): () => void {
  const file = pgliteLockFile(pgliteDir);
  mkdirSync(path.dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(file, `${process.pid}\n${purpose}\n`, { flag: 'wx' });
      return () => {
        const [holder] = readFileSync(file, 'utf8').split('\n');
        if (Number(holder) === process.pid) rmSync(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const [holder = '', what = 'another process'] = readFileSync(file, 'utf8').split('\n');
      const pid = Number(holder);
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new PgliteInUseError(
          `The embedded database in ${path.resolve(pgliteDir)} is in use by process ${pid} (${what}). ` +
            'Stop it first: only one process may open it at a time.',
        );
      }
      rmSync(file, { force: true }); // left by a process that is gone
    }
  }
  throw new PgliteInUseError(`Could not claim ${file}`);
}
