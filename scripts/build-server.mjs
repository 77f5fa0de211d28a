// Compiles the server (and the shared contracts it imports) to JavaScript in server/dist, so that
// production runs `node server/dist/main.js` without tsx. Used by `npm start` (only when the build
// is missing or older than its sources, like the web app) and `npm run build` (always).
//
//   server/dist/                              the server, one .js per .ts (tests left out), + source maps
//   server/dist/db/migrations/*.sql, ...      every non-TypeScript file of server/src (read at run time
//                                             next to the code through import.meta.dirname)
//   server/dist/node_modules/@shop/contracts  the contracts compiled, found by Node before the
//                                             workspace's TypeScript sources
//
// Types are checked by `npm run typecheck`, not here (tsc --noCheck only emits). The build is made in
// server/.dist-build and renamed into place, so running instances never see a half-written dist.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const server = path.join(root, 'server');
const dist = path.join(server, 'dist');
const staging = path.join(server, '.dist-build');
const stampFile = path.join(dist, '.build-stamp');
const isTestFile = (name) => /\.test\.ts$|\.test-helpers\.ts$|^test-factories\.ts$/.test(name);

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (!isTestFile(entry.name)) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

function sourcesChangedAt() {
  const files = [
    path.join(server, 'tsconfig.build.json'), path.join(root, 'contracts/tsconfig.build.json'),
    path.join(root, 'tsconfig.base.json'), path.join(root, 'contracts/package.json'), import.meta.filename,
  ];
  return Math.max(newestSource(path.join(server, 'src')), newestSource(path.join(root, 'contracts/src')), ...files.map((f) => statSync(f).mtimeMs));
}

/** Copies every file of `from` that is not TypeScript (SQL migrations, faq.json, ...), tests left out. */
function copyAssets(from, to) {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const src = path.join(from, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'test') copyAssets(src, path.join(to, entry.name));
    } else if (!entry.name.endsWith('.ts')) {
      cpSync(src, path.join(to, entry.name));
    }
  }
}

function tsc(project) {
  const bin = path.join(root, 'node_modules/typescript/bin/tsc');
  return spawnSync(process.execPath, [bin, '-p', project, '--noCheck'], { cwd: root, stdio: 'inherit' }).status ?? 1;
}

/** Builds server/dist; returns the exit status (0 on success). */
export function buildServer() {
  const startedAt = Date.now();
  rmSync(staging, { recursive: true, force: true });
  if (tsc('contracts/tsconfig.build.json') !== 0 || tsc('server/tsconfig.build.json') !== 0) return 1;
  copyAssets(path.join(server, 'src'), staging);
  // The contracts' package.json, with its exports pointing at the compiled files.
  const contracts = JSON.parse(readFileSync(path.join(root, 'contracts/package.json'), 'utf8'));
  const toJs = (p) => p.replace(/^\.\/src\//, './').replace(/\.ts$/, '.js');
  const exportsJs = Object.fromEntries(Object.entries(contracts.exports).map(([k, v]) => [k, toJs(v)]));
  writeFileSync(path.join(staging, 'node_modules/@shop/contracts/package.json'),
    `${JSON.stringify({ name: contracts.name, private: true, type: 'module', exports: exportsJs }, null, 2)}\n`);
  writeFileSync(path.join(staging, '.build-stamp'), `${new Date().toISOString()}\n`);
  const old = `${dist}.old`;
  rmSync(old, { recursive: true, force: true });
  if (existsSync(dist)) renameSync(dist, old);
  renameSync(staging, dist);
  rmSync(old, { recursive: true, force: true });
  console.info(`Server built in ${((Date.now() - startedAt) / 1000).toFixed(1)} s (server/dist).`);
  return 0;
}

/** Returns the build's exit status (0 when nothing had to be built). */
export function buildServerIfStale() {
  const builtAt = existsSync(stampFile) ? statSync(stampFile).mtimeMs : 0;
  if (builtAt !== 0 && sourcesChangedAt() <= builtAt) return 0;
  console.info('Building the server...');
  return buildServer();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exit(process.argv.includes('--if-stale') ? buildServerIfStale() : buildServer());
}
