/**
 * `npm run bench`: runs every benchmark in turn, each in its own process, and prints their figures.
 * Benchmarks are never part of `npm test`. Pass `--only=catalogue,checkout` to pick; other flags
 * are handed to every script (for instance `--duration=5`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const BENCHMARKS: Array<{ name: string; file: string; about: string }> = [
  { name: 'catalogue', file: 'catalogue.ts', about: 'search, filters, deep pages and product pages on PostgreSQL (100k) and PGlite (10k)' },
  { name: 'checkout', file: 'checkout.ts', about: 'concurrent buyers placing and paying orders on PostgreSQL' },
  { name: 'chat', file: 'chat.ts', about: 'sockets held, delivery latency on one instance and across two via Redis, AI answer time' },
  { name: 'dashboard', file: 'dashboard.ts', about: 'admin summary on PostgreSQL (200k orders) and PGlite (20k orders), 10 admins' },
  { name: 'chaos', file: 'chaos.ts', about: 'kill -9 under checkout and chat load, then a consistency check' },
  { name: 'chaos-fleet', file: 'chaos-fleet.ts', about: '3 instances behind HAProxy, kill -9 of one then another under load: failed GETs, orders, chat' },
  { name: 'startup', file: 'startup.ts', about: 'start to healthy and memory at idle of the compiled server, PGlite and PostgreSQL, fresh and second start' },
  { name: 'soak', file: 'soak.ts', about: 'mixed traffic on two instances for --minutes (default 10): errors, p99 per route, RSS slope' },
  { name: 'assistant-eval', file: 'assistant-eval.ts', about: "the chat assistant's answers to 109 shopper questions over the demo catalogue, checked against facts computed from it: accuracy (goal 90 %)" },
];
// Not run by default (long, or needing a running shop): growth.ts (10k/100k/1M products) and
// lighthouse/run.ts; pick them with --only=growth or run them directly.
const OPTIONAL: typeof BENCHMARKS = [
  { name: 'growth', file: 'growth.ts', about: 'search and checkout at 10k / 100k / 1M products on PostgreSQL' },
];

const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
const passThrough = process.argv.slice(2).filter((a) => !a.startsWith('--only='));
const failed: string[] = [];

for (const b of [...BENCHMARKS, ...OPTIONAL]) {
  if (only ? !only.includes(b.name) : OPTIONAL.includes(b)) continue;
  const file = path.join(import.meta.dirname, b.file);
  if (!existsSync(file)) continue;
  console.info(`\n######## ${b.name}: ${b.about}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', file, ...passThrough], { stdio: 'inherit' });
  if (r.status !== 0) failed.push(b.name);
}
if (failed.length) {
  console.error(`\nbenchmarks that failed: ${failed.join(', ')}`);
  process.exitCode = 1;
}
