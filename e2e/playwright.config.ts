import { execFileSync } from 'node:child_process';
import { defineConfig, devices } from '@playwright/test';

// A port that is free now unless E2E_PORT says which, so the browser tests pass beside a running
// shop. Chosen once by the runner and passed on in the environment: the workers, which load this
// file again, and the specs read the same E2E_PORT.
if (!process.env.E2E_PORT) {
  process.env.E2E_PORT = execFileSync(process.execPath, ['-e',
    "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { process.stdout.write(String(s.address().port)); s.close(); })",
  ], { encoding: 'utf8' }).trim();
}
const port = Number(process.env.E2E_PORT);
export const baseURL = `http://localhost:${port}`;

export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 1),
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  outputDir: `test-results/port-${port}`,
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
  webServer: {
    command: `node scripts/serve.mjs`,
    url: `${baseURL}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: { E2E_PORT: String(port) },
  },
});
