// `npm start`: builds the web app and the server (TypeScript compiled to server/dist) when their
// builds are missing or older than their sources, then runs the compiled server (embedded PGlite in
// ./data unless DATABASE_URL is set) on http://localhost:3000. Development (`npm run dev`) and the
// tests keep running the TypeScript sources through tsx.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { buildServerIfStale } from './build-server.mjs';
import { buildWebIfStale } from './build-web-if-stale.mjs';

const root = path.resolve(import.meta.dirname, '..');
for (const build of [buildWebIfStale, buildServerIfStale]) {
  const status = build();
  if (status !== 0) process.exit(status);
}

const child = spawn(process.execPath, ['dist/main.js'], {
  cwd: path.join(root, 'server'),
  env: { ...process.env, DATA_DIR: process.env.DATA_DIR ?? path.join(root, 'data') },
  stdio: 'inherit',
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
