import { existsSync, realpathSync } from 'node:fs';
import { ssrEntryFile } from './ssr.ts';

/**
 * The web build an instance serves. A deploy builds beside the served directory and switches a link
 * to the new build in one step (scripts/build-web.mjs: web/dist -> dist-<id>), while instances of the
 * previous build are still running, so an instance keeps two paths:
 * - `served`: WEB_DIST_DIR as configured (web/dist, the link): static files are looked up there on
 *   each request, so a file of a build made after the instance started is served (a page rendered
 *   by an instance of the new build names files that the old instances must serve too);
 * - `own`: where that link pointed when the instance started: its index.html, build manifest and
 *   server-rendering bundle stay those of the build it started with, the build its pages name
 *   (each build keeps the hashed assets of the builds before it, so the served build has them too;
 *   files missing there are looked for in `own` as well).
 * Without a link (a plain directory, as in the tests and the browser tests) both are the same.
 */
export interface WebBuild {
  served: string;
  own: string;
  /** Where the server-rendering bundle is looked for: `<own>-ssr`, else `<served>-ssr`. */
  ssrBase: string;
}

/** Resolves the served directory's link once (at start). */
export function pinWebBuild(dir: string): WebBuild {
  let own = dir;
  try {
    own = realpathSync(dir);
  } catch {
    /* no build there yet */
  }
  return { served: dir, own, ssrBase: own !== dir && !existsSync(ssrEntryFile(own)) ? dir : own };
}
