// `npm test`: every check the project has — typecheck of each workspace, lint, the web tests, the
// server tests (PGlite, and PostgreSQL when TEST_DATABASE_URL is set) and the browser tests.
//
// They run in three lanes: the quick checks one after another, the server tests, the browser tests.
// How many run at once is chosen by the cores available (os.availableParallelism()): with 4 or
// more, all three side by side, which takes about the longest lane instead of the sum; with fewer,
// the quick checks beside the server tests, then the browser tests alone. The server tests keep
// under one core busy (they wait on child processes, PostgreSQL and timers: 353 CPU s in 493 s), so
// the quick checks fill the other; three lanes at once on 2 cores reached load 16-19 and timed tests
// out (docs/testing.md, "How long the suite takes").
// Each job's output is held and printed whole when it ends, so it stays readable (and written to
// test-results/<job>.log as it comes, to follow a long job); each part's time is printed, and a
// summary at the end; the exit code is 1 if any part failed.
// `node scripts/test.mjs --only=quick|server|e2e` runs one lane; `--serial` / `--parallel` force
// the lanes one after another / all side by side.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const root = path.resolve(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const cores = availableParallelism();
const mode = process.argv.includes('--serial') ? 'serial' : process.argv.includes('--parallel') || cores >= 4 ? 'parallel' : 'paired';
const logDir = path.join(root, 'test-results');
mkdirSync(logDir, { recursive: true });

const lanes = [
  {
    name: 'quick',
    // The longest first.
    jobs: [
      { name: 'web tests', cmd: npm, args: ['test', '-w', 'web'] },
      ...['web', 'server', 'e2e', 'bench', 'contracts'].map((w) => ({ name: `typecheck ${w}`, cmd: npm, args: ['run', 'typecheck', '-w', w] })),
      { name: 'lint', cmd: npm, args: ['run', 'lint'] },
    ],
  },
  { name: 'server', jobs: [{ name: 'server tests', cmd: npm, args: ['test', '-w', 'server'] }] },
  { name: 'e2e', jobs: [{ name: 'browser tests', cmd: npm, args: ['test', '-w', 'e2e'] }] },
].filter((l) => !only || l.name === only);

const seconds = (ms) => `${Math.round(ms / 1000)} s`;

// The lines of a failed job that name what failed (vitest's FAIL and ×, Playwright's ✘ and numbered
// failures, thrown errors), repeated under the summary: a CI log that keeps only its tail still says
// which test failed.
function failureLines(output) {
  const wanted = /^\s*(FAIL\b|×|✘|✗|\d+\) \[)|Error:|Timed out|Test timed out|Unhandled/;
  const lines = output.split('\n').map((l) => stripVTControlCharacters(l).trimEnd()).filter((l) => wanted.test(l));
  return [...new Set(lines)].slice(0, 40);
}
const results = [];

function run(job) {
  return new Promise((resolve) => {
    const started = Date.now();
    let output = '';
    const log = createWriteStream(path.join(logDir, `${job.name.replace(/\W+/g, '-')}.log`));
    const child = spawn(job.cmd, job.args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    const take = (d) => { output += d; log.write(d); };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (err) => take(`${err.stack ?? err}\n`));
    child.on('close', (code, signal) => {
      log.end();
      const ok = code === 0;
      const took = Date.now() - started;
      process.stdout.write(`\n== ${job.name}\n${output.trimEnd()}\n`);
      process.stdout.write(`== ${job.name}: ${ok ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`} in ${seconds(took)}\n`);
      results.push({ name: job.name, ok, took, failures: ok ? [] : failureLines(output) });
      resolve(ok);
    });
  });
}

async function runLane(lane) {
  let ok = true;
  for (const job of lane.jobs) ok = (await run(job)) && ok;
  return ok;
}

const started = Date.now();
let passed = true;
// Stages run one after another; the lanes of a stage side by side.
const stages = {
  serial: lanes.map((l) => [l]),
  parallel: [lanes],
  paired: [lanes.filter((l) => l.name !== 'e2e'), lanes.filter((l) => l.name === 'e2e')],
}[mode].filter((stage) => stage.length);
const described = { serial: 'one after another', parallel: 'side by side', paired: 'the quick checks beside the server tests, then the browser tests' };
if (!only) process.stdout.write(`npm test: ${cores} cores, the lanes ${described[mode]} (--serial / --parallel to choose)\n`);
for (const stage of stages) passed = (await Promise.all(stage.map(runLane))).every(Boolean) && passed;
process.stdout.write(`\n== npm test: ${passed ? 'passed' : 'FAILED'} in ${seconds(Date.now() - started)}\n`);
for (const r of results) process.stdout.write(`   ${r.ok ? 'ok    ' : 'FAILED'} ${r.name} (${seconds(r.took)})\n`);
for (const r of results.filter((x) => !x.ok)) {
  process.stdout.write(`\n== what failed in ${r.name} (whole output above and in test-results/)\n`);
  for (const line of r.failures) process.stdout.write(`   ${line.slice(0, 300)}\n`);
}
process.exit(passed ? 0 : 1);
