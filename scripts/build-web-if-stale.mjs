// Builds the web app when its build is missing or older than its sources (used by `npm start` and
// `npm run fleet`; run directly, it exits with the build's status). web/dist and web/dist-ssr are
// links to the current build (scripts/build-web.mjs, which `npm run build -w web` runs): a build
// made while a shop runs is switched in when it is complete.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const web = path.join(root, 'web');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name === 'dist-ssr') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Returns the build's exit status (0 when nothing had to be built). */
export function buildWebIfStale() {
  const builtAt = (() => {
    try {
      // Both builds: the web app and its server-rendering bundle (made after it).
      return Math.min(statSync(path.join(web, 'dist/index.html')).mtimeMs, statSync(path.join(web, 'dist-ssr/entry-server.js')).mtimeMs);
    } catch {
      return 0;
    }
  })();
  const sources = [path.join(web, 'src'), path.join(web, 'public'), path.join(root, 'contracts/src')].filter(existsSync);
  const stale = builtAt === 0 || Math.max(...sources.map(newestSource), statSync(path.join(web, 'index.html')).mtimeMs) > builtAt;
  if (!stale) return 0;
  console.info('Building the web app...');
  return spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: 'inherit' }).status ?? 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exit(buildWebIfStale());
