import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { APP_START_SCRIPT } from '@shop/contracts/theme';

const WEB_DIR = path.resolve(import.meta.dirname, '../../../web');

/** An index.html as the web build writes it (the root element empty; the entry preloaded in the head, started by APP_START_SCRIPT). */
export const TEST_INDEX_HTML = `<!doctype html>
<html lang="en" data-bs-theme="light">
  <head>
    <meta charset="UTF-8" />
    <meta name="description" content="Default description" />
    <title>Shop: Smart Finds. Joyfully Delivered</title>
    <link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/index-T1.js" data-app-entry>
    <script>${APP_START_SCRIPT}</script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

/**
 * A web build for server tests: this index.html and the real server-rendering bundle, built from the
 * web app's sources (`vite build --ssr`, about 10 s) into `<dir>/web-ssr`. Returns `<dir>/web`.
 */
export async function buildWebForSsr(indexHtml = TEST_INDEX_HTML): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'shop-ssr-'));
  const web = path.join(dir, 'web');
  mkdirSync(web);
  writeFileSync(path.join(web, 'index.html'), indexHtml);
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(WEB_DIR, '../node_modules/vite/bin/vite.js'), 'build', '--ssr', 'src/entry-server.tsx', '--logLevel', 'error'], {
      cwd: WEB_DIR,
      env: { ...process.env, WEB_OUT_DIR: web, NODE_ENV: 'production' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`vite build --ssr failed (${code}): ${stderr}`))));
  });
  return web;
}
