// `npm run build -w web` (and `npm run build`, and `npm start` when the build is stale): builds the
// web app and its server-rendering bundle into new directories and switches to them in one step, so
// running instances never see a missing or half-written build:
//
//   web/dist-<id>/        the web app (index.html, assets/, ...), plus the hashed assets of the
//                         previous builds (vite.config.ts, keepPreviousAssets), so pages rendered by
//                         instances still running an older build find their chunks
//   web/dist-<id>-ssr/    its server-rendering bundle
//   web/dist -> dist-<id>, web/dist-ssr -> dist-<id>-ssr
//                         symbolic links, each replaced by a rename (atomic): a reader sees the old
//                         build or the new one, never none
//
// The server serves files through the link, looked up on each request, so a file of the new build
// is served by instances started before it; each instance keeps the index.html and server-rendering
// bundle of the build it started with (it resolves the link once, at start). The builds before the
// previous KEEP_PREVIOUS are removed. A failed build leaves the links as they were. A web/dist that
// is still a plain directory (a build made in place before this script) becomes a dist-<id> of its
// own. One build at a time per directory (a lock file beside it).
//
//   node scripts/build-web.mjs [--out <dir>] [-- <vite build options>]
//     --out   the link to switch (default web/dist); the builds go beside it as <dir>-<id>
//     after --, options for both vite builds (e.g. --minify false)
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const web = path.join(root, 'web');
const vite = path.join(root, 'node_modules/vite/bin/vite.js');
/** Builds kept besides the current one (their directories; their assets are kept by WEB_ASSET_KEEP_BUILDS). */
export const KEEP_PREVIOUS = 2;
const ID = /^\d{8}-\d{6}-[0-9a-f]{4}$/;

/** A build id: its UTC time to the second, then 4 random hex digits (sorts by time). */
export function newBuildId(at = new Date()) {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${randomBytes(2).toString('hex')}`;
}

const isLink = (p) => {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
};
const exists = (p) => {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
};

/** Points `link` at `target` (a name beside it) by renaming a new link over it: atomic for readers. */
function switchLink(link, target) {
  const tmp = path.join(path.dirname(link), `.${path.basename(link)}.${process.pid}.link`);
  rmSync(tmp, { force: true });
  symlinkSync(target, tmp);
  renameSync(tmp, link);
}

/** The build ids found beside `dist` (dist-<id> and dist-<id>-ssr), newest first. */
function buildIds(dist) {
  const base = path.basename(dist);
  const ids = new Set();
  for (const name of readdirSync(path.dirname(dist))) {
    if (!name.startsWith(`${base}-`)) continue;
    const id = name.slice(base.length + 1).replace(/-ssr$/, '');
    if (ID.test(id)) ids.add(id);
  }
  return [...ids].sort().reverse();
}

/** Takes the build lock beside `dist`; returns its release, or throws when another live build holds it. */
function lock(dist) {
  const file = path.join(path.dirname(dist), `.${path.basename(dist)}.build-lock`);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(file, 'utf8'));
      let alive = false;
      try {
        process.kill(pid, 0);
        alive = Number.isInteger(pid) && pid > 0;
      } catch (e) {
        alive = e.code === 'EPERM';
      }
      if (alive) throw new Error(`another web build (pid ${pid}) is running for ${dist}`);
      rmSync(file, { force: true }); // left by a build that was killed
    }
  }
  throw new Error(`could not take the build lock ${file}`);
}

/**
 * A plain directory where a link goes (a build made in place, before this script): moved to a build
 * directory of its own, `<dist>-<id>` or `<dist>-<id>-ssr`, which is then pruned like any build.
 * Returns its new name.
 */
function adoptPlainDirectory(dir, dist, id) {
  const moved = path.join(path.dirname(dist), `${path.basename(dist)}-${id}${dir === dist ? '' : '-ssr'}`);
  renameSync(dir, moved);
  return path.basename(moved);
}

/** Builds, switches and prunes; returns the exit status. */
export function buildWeb({ out = path.join(web, 'dist'), viteArgs = [], log = console.info } = {}) {
  const startedAt = Date.now();
  const dist = path.resolve(out);
  const base = path.basename(dist);
  const parent = path.dirname(dist);
  mkdirSync(parent, { recursive: true });
  const release = lock(dist);
  try {
    const id = newBuildId();
    const next = path.join(parent, `${base}-${id}`);
    // The build in use now: its assets are copied into the new one (the link's target, or a plain directory).
    const previous = isLink(dist) ? path.resolve(parent, readlinkSync(dist)) : existsSync(dist) ? dist : undefined;
    const env = { ...process.env, WEB_OUT_DIR: next, ...(previous && existsSync(previous) ? { WEB_PREVIOUS_BUILD: previous } : {}) };
    for (const args of [['build', ...viteArgs], ['build', '--ssr', 'src/entry-server.tsx', '--logLevel', 'warn', ...viteArgs]]) {
      const status = spawnSync(process.execPath, [vite, ...args], { cwd: web, env, stdio: 'inherit' }).status ?? 1;
      if (status !== 0) {
        rmSync(next, { recursive: true, force: true });
        rmSync(`${next}-ssr`, { recursive: true, force: true });
        log(`Web build failed (vite exited with ${status}): ${dist} still serves the build it had.`);
        return status;
      }
    }
    // A stray link left by a switch that was interrupted.
    for (const name of readdirSync(parent)) if (name.startsWith(`.${base}`) && name.endsWith('.link')) rmSync(path.join(parent, name), { force: true });
    // The server-rendering bundle's link first: whoever sees the new web/dist sees its bundle too.
    // (A plain directory in the way, from a build made in place before, is moved aside: its files
    // are unreachable for an instant, once.)
    const plain = [dist, `${dist}-ssr`].find((p) => exists(p) && !isLink(p));
    const adoptedId = plain ? newBuildId(statSync(plain).mtime) : undefined;
    for (const [link, target] of [[`${dist}-ssr`, `${base}-${id}-ssr`], [dist, `${base}-${id}`]]) {
      if (exists(link) && !isLink(link)) log(`${link} was a directory: kept as ${adoptPlainDirectory(link, dist, adoptedId)}`);
      switchLink(link, target);
    }
    // Kept: this build, the one that was in use until now, and the newest others up to KEEP_PREVIOUS.
    const keep = new Set([id, adoptedId ?? path.basename(previous ?? '').slice(base.length + 1)]);
    for (const other of buildIds(dist)) if (keep.size < KEEP_PREVIOUS + 1) keep.add(other);
    const removed = [];
    for (const old of buildIds(dist).filter((b) => !keep.has(b))) {
      rmSync(path.join(parent, `${base}-${old}`), { recursive: true, force: true });
      rmSync(path.join(parent, `${base}-${old}-ssr`), { recursive: true, force: true });
      removed.push(`${base}-${old}`);
    }
    log(`Web app built in ${((Date.now() - startedAt) / 1000).toFixed(1)} s: ${path.relative(process.cwd(), dist) || dist} -> ${base}-${id}` +
      (removed.length ? `; removed ${removed.join(', ')}` : ''));
    return 0;
  } finally {
    release();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const argv = process.argv.slice(2);
  const dashes = argv.indexOf('--');
  const own = dashes === -1 ? argv : argv.slice(0, dashes);
  const viteArgs = dashes === -1 ? [] : argv.slice(dashes + 1);
  const outAt = own.indexOf('--out');
  if ((outAt !== -1 && !own[outAt + 1]) || own.some((a, i) => a !== '--out' && i !== outAt + 1)) {
    console.error('usage: node scripts/build-web.mjs [--out <dir>] [-- <vite build options>]');
    process.exit(2);
  }
  try {
    process.exit(buildWeb({ ...(outAt !== -1 ? { out: own[outAt + 1] } : {}), viteArgs }));
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
