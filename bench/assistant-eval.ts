/**
 * The chat assistant's evaluation (issue 36): the questions of bench/assistant-eval/questions.ts
 * (at least 60, asked as a shopper would: budgets, superlatives, comparisons, out of stock, shipping
 * to a country, FAQ against orders, hand-off, off-topic, prompt injection) against a fresh embedded
 * shop — PGlite in memory, migrated, with the demo seed — through the chat's own entry point
 * (POST /api/chat/ai-response). Each answer is checked against facts computed from the catalogue in
 * that database. Prints PASS/FAIL per question (the facts a failure missed, and its answer), the
 * accuracy per intent and overall. Exits 1 below --goal (default 0.9).
 *
 * With LLM_BASE_URL (and LLM_API_KEY, LLM_MODEL, LLM_TIMEOUT_MS) set, the shop is configured with
 * that OpenAI-compatible model, exactly as the server reads them (server/src/config.ts), and the same
 * questions and facts hold it to account; the built-in assistant answers whenever the model fails.
 *
 *   node --import tsx bench/assistant-eval.ts [--subset] [--only=<id,...>] [--verbose] [--goal=0.9] [--json=<file>]
 *   (--verbose prints every answer, not only the wrong ones)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import { openDatabase } from '../server/src/db/client.ts';
import { migrate } from '../server/src/db/migrate.ts';
import { seedDatabase } from '../server/src/db/seed/index.ts';
import { formatResult, prepareEval, summarise } from './assistant-eval/harness.ts';
import { QUESTIONS } from './assistant-eval/questions.ts';

const flag = (name: string) => process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
const value = (name: string) => flag(name)?.split('=').slice(1).join('=');
const GOAL = Number(value('goal') ?? 0.9);
if (!Number.isFinite(GOAL) || GOAL < 0 || GOAL > 1) throw new Error('--goal is a fraction from 0 to 1');
const only = value('only')?.split(',').filter(Boolean);

const questions = QUESTIONS.filter((q) => (!flag('subset') || q.subset) && (!only || only.includes(q.id)));
const LLM_ENV = ['LLM_BASE_URL', 'LLM_API_KEY', 'LLM_MODEL', 'LLM_TIMEOUT_MS'] as const;
const llm = Object.fromEntries(LLM_ENV.filter((k) => process.env[k]).map((k) => [k, process.env[k]!]));

const dataDir = mkdtempSync(path.join(tmpdir(), 'assistant-eval-'));
const config = loadConfig({
  NODE_ENV: 'test',
  DATA_DIR: dataDir,
  JWT_SECRET: 'assistant-eval-secret-assistant-eval-secret',
  LOG_LEVEL: 'silent',
  WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
  SEED_DEMO_DATA: 'true',
  AUTH_RATE_LIMIT_MAX: '10000',
  CHAT_AI_REQUESTS_PER_MINUTE: '10000',
  JOBS_POLL_MS: '0',
  ...llm,
});

const database = await openDatabase({ pgliteDir: 'memory://' });
let exitCode = 0;
try {
  await migrate(database);
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  try {
    await seedDatabase(database.db, config, app.log);
    const { catalogue, run } = await prepareEval(app, database.db, config);
    console.info(`assistant evaluation: ${questions.length} questions over the demo catalogue (${catalogue.products.length} products), ` +
      `answered by ${config.llm.baseUrl ? `the model ${config.llm.model} at ${config.llm.baseUrl} (the built-in assistant when it fails)` : 'the built-in assistant (no LLM_BASE_URL)'}\n`);
    const results = await run(questions, (r) => console.info(formatResult(r, Boolean(flag('verbose')))));
    const s = summarise(results);
    console.info('\nby intent:');
    for (const [intent, b] of Object.entries(s.byIntent)) console.info(`  ${intent.padEnd(17)} ${b.passed}/${b.total}`);
    console.info(`\naccuracy: ${s.passed}/${s.total} = ${(s.accuracy * 100).toFixed(1)} % (goal ${(GOAL * 100).toFixed(0)} %)`);
    const failed = results.filter((r) => r.failed.length);
    if (failed.length) console.info(`wrong: ${failed.map((r) => r.id).join(', ')}`);
    const json = value('json');
    if (json) writeFileSync(json, `${JSON.stringify({ model: config.llm.baseUrl ? config.llm.model : 'built-in', ...s, results }, null, 2)}\n`);
    if (s.accuracy < GOAL) exitCode = 1;
  } finally {
    await app.close();
  }
} finally {
  await database.close().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
