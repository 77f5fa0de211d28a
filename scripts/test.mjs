// `npm test`: every check the project has, in three stages, stopping after the first stage that fails.
//   1. the quick checks — typecheck of each workspace, lint, the web tests — two at a time (this is a
//      2-core machine). Their output is held and printed whole as each one finishes, so it stays readable.
//   2. the server tests (PGlite, and PostgreSQL when TEST_DATABASE_URL is set), output as it comes.
//   3. the browser tests, output as it comes.
// Each part's time is printed, and a summary at the end; the exit code is 1 if any part failed.
// `node scripts/test.mjs --only=quick|server|e2e` runs one stage.
import { spawn } from 'node:child_process';
import { cpus } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);

const quick = [
  ...['contracts', 'server', 'web', 'e2e', 'bench'].map((w) => ({ name: `typecheck ${w}`, cmd: npm, args: ['run', 'typecheck', '-w', w] })),
  { name: 'lint', cmd: npm, args: ['run', 'lint'] },
  { name: 'web tests', cmd: npm, args: ['test', '-w', 'web'] },
];
// The longest first, so the two lanes finish together.
const order = ['web tests', 'typecheck web', 'lint', 'typecheck server'];
quick.sort((a, b) => (order.indexOf(a.name) + 1 || 99) - (order.indexOf(b.name) + 1 || 99));

const stages = [
  { name: 'quick', jobs: quick, parallel: Math.max(1, Math.min(2, cpus().length)) },
  { name: 'server', jobs: [{ name: 'server tests', cmd: npm, args: ['test', '-w', 'server'] }], parallel: 1 },
  { name: 'e2e', jobs: [{ name: 'browser tests', cmd: npm, args: ['test', '-w', 'e2e'] }], parallel: 1 },
].filter((s) => !only || s.name === only);

const seconds = (ms) => `${Math.round(ms / 1000)} s`;
const results = [];

function run(job, buffered) {
  return new Promise((resolve) => {
    const started = Date.now();
    let output = '';
    const child = spawn(job.cmd, job.args, { cwd: root, stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: process.env });
    if (buffered) {
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
    } else {
      process.stdout.write(`\n== ${job.name}\n`);
    }
    child.on('error', (err) => (output += `${err.stack ?? err}\n`));
    child.on('close', (code, signal) => {
      const ok = code === 0;
      const took = Date.now() - started;
      if (buffered) process.stdout.write(`\n== ${job.name}\n${output.trimEnd()}\n`);
      process.stdout.write(`== ${job.name}: ${ok ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`} in ${seconds(took)}\n`);
      results.push({ name: job.name, ok, took });
      resolve(ok);
    });
  });
}

async function runStage(stage) {
  const queue = [...stage.jobs];
  let ok = true;
  const lane = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) ok = (await run(job, stage.parallel > 1)) && ok;
  };
  await Promise.all(Array.from({ length: stage.parallel }, lane));
  return ok;
}

const started = Date.now();
let passed = true;
for (const stage of stages) {
  const stageStarted = Date.now();
  passed = await runStage(stage);
  process.stdout.write(`== stage ${stage.name}: ${passed ? 'passed' : 'FAILED'} in ${seconds(Date.now() - stageStarted)}\n`);
  if (!passed) break;
}
process.stdout.write(`\n== npm test: ${passed ? 'passed' : 'FAILED'} in ${seconds(Date.now() - started)}\n`);
for (const r of results) process.stdout.write(`   ${r.ok ? 'ok    ' : 'FAILED'} ${r.name} (${seconds(r.took)})\n`);
process.exit(passed ? 0 : 1);
