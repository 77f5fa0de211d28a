// Builds the web app for the browser tests into the folder given (argv[2]): the client build there
// and its server-rendering bundle beside it (<folder>-ssr, where the server looks for it). Made once
// per run by playwright.config.ts; every shop of the run serves it.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

const webDist = process.argv[2];
if (!webDist) {
  console.error('usage: node scripts/build-web.mjs <out-dir>');
  process.exit(2);
}
const root = path.resolve(import.meta.dirname, '../..');
const tmp = path.join(root, 'e2e/.tmp');
mkdirSync(tmp, { recursive: true });
// Each run takes free ports, so earlier runs' folders (a web build, a database each) are removed once
// they are a day old.
for (const entry of readdirSync(tmp, { withFileTypes: true })) {
  const dir = path.join(tmp, entry.name);
  try {
    if (entry.isDirectory() && /^(run|build)-/.test(entry.name) && Date.now() - statSync(dir).mtimeMs > 86_400_000) rmSync(dir, { recursive: true, force: true });
  } catch { /* another run's folder, being written */ }
}
rmSync(webDist, { recursive: true, force: true });
rmSync(`${webDist}-ssr`, { recursive: true, force: true });
for (const args of [['vite', 'build', '--logLevel', 'error'], ['vite', 'build', '--ssr', 'src/entry-server.tsx', '--logLevel', 'error']]) {
  const build = spawnSync('npx', args, { cwd: path.join(root, 'web'), env: { ...process.env, WEB_OUT_DIR: webDist }, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
