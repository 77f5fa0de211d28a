// Starts a fresh shop for the browser tests on E2E_PORT: a new data dir (embedded PGlite, demo
// data) and the web build E2E_WEB_DIST (made once per run by playwright.config.ts, shared by every
// shop of the run); without E2E_WEB_DIST it makes a build of its own first.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, openSync, rmSync } from 'node:fs';
import path from 'node:path';

const port = process.env.E2E_PORT;
const root = path.resolve(import.meta.dirname, '../..');
const tmp = path.join(root, 'e2e/.tmp', `run-${port}`);
rmSync(tmp, { recursive: true, force: true });
mkdirSync(tmp, { recursive: true });
let webDist = process.env.E2E_WEB_DIST;
if (!webDist) {
  webDist = path.join(tmp, 'web');
  const build = spawnSync(process.execPath, [path.join(import.meta.dirname, 'build-web.mjs'), webDist], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

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
