// Starts a fresh shop for the browser tests: new data dir (embedded PGlite, demo data), a web build
// of its own (so parallel runs on other ports do not clash), the server on E2E_PORT.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, openSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

const port = process.env.E2E_PORT;
const root = path.resolve(import.meta.dirname, '../..');
const tmp = path.join(root, 'e2e/.tmp', `run-${port}`);
rmSync(tmp, { recursive: true, force: true });
mkdirSync(tmp, { recursive: true });
// Each run takes a free port, so earlier runs' folders (a web build and a database each) are
// removed once they are a day old.
for (const name of readdirSync(path.dirname(tmp), { withFileTypes: true })) {
  const dir = path.join(path.dirname(tmp), name.name);
  try {
    if (name.isDirectory() && name.name.startsWith('run-') && Date.now() - statSync(dir).mtimeMs > 86_400_000) rmSync(dir, { recursive: true, force: true });
  } catch { /* another run's folder, being written */ }
}
const webDist = path.join(tmp, 'web');

const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'error'], {
  cwd: path.join(root, 'web'),
  env: { ...process.env, WEB_OUT_DIR: webDist },
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);
// The server-rendering bundle, beside it (<web>-ssr, where the server looks for it).
const ssrBuild = spawnSync('npx', ['vite', 'build', '--ssr', 'src/entry-server.tsx', '--logLevel', 'error'], {
  cwd: path.join(root, 'web'),
  env: { ...process.env, WEB_OUT_DIR: webDist },
  stdio: 'inherit',
});
if (ssrBuild.status !== 0) process.exit(ssrBuild.status ?? 1);

// The server's (JSON) log goes to a file, not to this process's output: tests read the mails (sign-up
// confirmation, password reset) from it. Without SMTP_URL mail stays in the outbox table; outside
// production, at LOG_LEVEL=debug, the server also prints it as a labelled development aid.
const serverLog = openSync(path.join(tmp, 'server.log'), 'a');
const server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
  cwd: path.join(root, 'server'),
  env: {
    ...process.env,
    NODE_ENV: 'test',
    PORT: port,
    HOST: '127.0.0.1',
    DATA_DIR: path.join(tmp, 'data'),
    WEB_DIST_DIR: webDist,
    LOG_LEVEL: 'debug',
    AUTH_RATE_LIMIT_MAX: '1000',
    // Supplier tracking in seconds, not an hour: the offline catalogue ships after 5 s (supplier-variants.spec).
    CJ_OFFLINE_SHIP_DELAY_SECONDS: '5',
    CJ_TRACKING_POLL_SECONDS: '3',
    DATABASE_URL: '',
    REDIS_URL: '',
    ...(process.env.E2E_SERVER_ENV ? JSON.parse(process.env.E2E_SERVER_ENV) : {}),
  },
  stdio: ['ignore', serverLog, 'inherit'],
});
const stop = () => server.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.on('exit', (code) => process.exit(code ?? 0));
