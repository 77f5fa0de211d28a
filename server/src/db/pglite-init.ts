import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The first start on an empty PGlite directory (initdb, the migrations, the demo seed) runs in a
 * short-lived child process (pglite-init-child.ts), and the server then opens the prepared
 * directory as on any later start. initdb and the bulk of the seed run a lot of PostgreSQL code
 * once: done in the server itself, the memory this leaves behind (WebAssembly code compiled for it,
 * a grown WebAssembly heap) stays in the server for its whole life, about 60 MB more at idle than a
 * later start. In the child it is returned to the system when the child exits.
 *
 * After the data is ready (the child has closed the database and said so), the child goes on to
 * draw the demo catalogue's images into the upload directory, so that neither the start nor the
 * server's memory carries the image encoder; an image asked for before the child has drawn it is
 * drawn by the server on demand (db/seed/demo-images.ts).
 */

/** True when `pgliteDir` holds no database yet (PGlite would run initdb on it). */
export const isFreshPgliteDir = (pgliteDir: string) => !existsSync(path.join(pgliteDir, 'PG_VERSION'));

export interface PgliteInit {
  /** The child, still drawing images (killed by stop()); null once it has exited. */
  readonly drawing: boolean;
  /** Stops the child (shutdown). */
  stop(): Promise<void>;
}

/** The child's messages to the server. */
export type PgliteInitMessage = { ready: true } | { error: string };

/** Node's flags for the child: this process's, without --watch (the dev server's own restart loop). */
const childExecArgv = () => process.execArgv.filter((a) => !a.startsWith('--watch'));

/**
 * Prepares the PGlite directory of the server configured by this process's environment in a child
 * process; resolves once the database is ready to open (the child keeps drawing images).
 */
export async function initPgliteInChild(): Promise<PgliteInit> {
  // The same kind of file as this one: .js next to the compiled server, .ts under tsx.
  const entry = path.join(import.meta.dirname, `pglite-init-child${path.extname(import.meta.filename)}`);
  const child: ChildProcess = fork(entry, [], { execArgv: childExecArgv(), stdio: 'inherit' });
  let exited = false;
  const exit = new Promise<number | null>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = true;
      resolve(signal ? 1 : code);
    });
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.on('message', (m: PgliteInitMessage) => {
      if ('ready' in m) resolve();
      else reject(new Error(`preparing the embedded database failed: ${m.error}`));
    });
    void exit.then((code) => reject(new Error(`preparing the embedded database failed (the child exited with ${code})`)));
  });
  try {
    await ready;
  } catch (err) {
    if (!exited) child.kill('SIGKILL');
    throw err;
  }
  return {
    get drawing() {
      return !exited;
    },
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      await exit;
    },
  };
}
