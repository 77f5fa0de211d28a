// `npm start`: builds the web app when its build is missing or older than its sources, then runs
// the server (embedded PGlite in ./data unless DATABASE_URL is set) on http://localhost:3000.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { buildWebIfStale } from './build-web-if-stale.mjs';

const root = path.resolve(import.meta.dirname, '..');
const status = buildWebIfStale();
if (status !== 0) process.exit(status);

const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
  cwd: path.join(root, 'server'),
  env: { ...process.env, DATA_DIR: process.env.DATA_DIR ?? path.join(root, 'data') },
  stdio: 'inherit',
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
