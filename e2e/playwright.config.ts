import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// The browser tests run in E2E_WORKERS workers (default 2), each against a shop of its own (its own
// port and database, so one worker's administrator edits never reach the other's pages), all serving
// one web build made once. Ports are free ones unless E2E_PORT says where the first goes; they are
// chosen once by the runner and passed on in the environment (E2E_PORTS): the workers, which load
// this file again, take theirs by TEST_PARALLEL_INDEX and set E2E_PORT, which the specs read.
const workers = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));
const freePort = () => execFileSync(process.execPath, ['-e',
  "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { process.stdout.write(String(s.address().port)); s.close(); })",
], { encoding: 'utf8' }).trim();
if (!process.env.E2E_PORTS) {
  const first = process.env.E2E_PORT ?? freePort();
  const ports = [first];
  while (ports.length < workers) {
    const p = freePort();
    if (!ports.includes(p)) ports.push(p);
  }
  process.env.E2E_PORTS = ports.join(',');
}
const ports = process.env.E2E_PORTS.split(',').map(Number);
const isWorker = process.env.TEST_PARALLEL_INDEX !== undefined;
if (isWorker) process.env.E2E_PORT = String(ports[Number(process.env.TEST_PARALLEL_INDEX) % ports.length]);
else process.env.E2E_PORT ??= String(ports[0]);
const port = Number(process.env.E2E_PORT);
export const baseURL = `http://localhost:${port}`;

// One web build (and its server-rendering bundle) for every shop of the run, made by the runner
// before the shops start (scripts/build-web.mjs); E2E_WEB_DIST reuses a build that is already there.
if (!isWorker && !process.env.E2E_WEB_DIST) {
  process.env.E2E_WEB_DIST = path.join(import.meta.dirname, '.tmp', `build-${ports[0]}`, 'web');
  execFileSync(process.execPath, [path.join(import.meta.dirname, 'scripts/build-web.mjs'), process.env.E2E_WEB_DIST], { stdio: 'inherit' });
}

export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  outputDir: `test-results/port-${ports[0]}`,
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: ports.map((p) => ({
    command: `node scripts/serve.mjs`,
    url: `http://localhost:${p}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: { E2E_PORT: String(p), E2E_WEB_DIST: process.env.E2E_WEB_DIST ?? '' },
  })),
});
