import { hostname } from 'node:os';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { jobs } from '../db/schema.ts';
import { openTestDatabase, TEST_DB } from '../test/test-app.ts';
import { AppError } from './errors.ts';
import {
  backoffMs, createJobRunner, DEFAULT_MAX_CONCURRENT_JOBS, enqueueJob, findJob, PermanentJobError, pruneFinishedJobs, retryJob, RetryableJobError,
  ROUND_FAILURE_REMINDER_MS, type JobRunnerOptions,
} from './jobs.ts';

const log = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe(`durable jobs on ${TEST_DB}`, () => {
  let database: Database;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ database, cleanup } = await openTestDatabase());
  });
  afterAll(async () => { await cleanup(); });
  beforeEach(async () => { await database.db.delete(jobs); });

  const runner = (o: Partial<JobRunnerOptions> = {}) => createJobRunner({ db: database.db, log, pollMs: 0, backoff: () => 0, ...o });
  const rowOf = async (kind: string, key: string) => (await findJob(database.db, kind, key))!;

  it('enqueues once per (kind, dedupe key), inside the caller\'s transaction', async () => {
    const first = await enqueueJob(database.db, { kind: 'mail', dedupeKey: 'order-1', payload: { n: 1 } });
    const again = await enqueueJob(database.db, { kind: 'mail', dedupeKey: 'order-1', payload: { n: 2 } });
    expect(first.created).toBe(true);
    expect(again).toEqual({ id: first.id, created: false });
    expect((await rowOf('mail', 'order-1')).payload).toEqual({ n: 1 });
    // A different kind with the same key is another job.
    expect((await enqueueJob(database.db, { kind: 'other', dedupeKey: 'order-1' })).created).toBe(true);

    // Rolled back with the transaction that wrote it.
    await expect(database.db.transaction(async (tx) => {
      await enqueueJob(tx, { kind: 'mail', dedupeKey: 'rolled-back' });
      throw new Error('abort');
    })).rejects.toThrow('abort');
    expect(await findJob(database.db, 'mail', 'rolled-back')).toBeUndefined();
  });

  it('runs a due job once and stores its result; jobs of unregistered kinds and future jobs wait', async () => {
    const seen: unknown[] = [];
    const r = runner();
    r.register('mail', async (payload) => { seen.push(payload); return { sent: true }; });
    await enqueueJob(database.db, { kind: 'mail', dedupeKey: 'a', payload: { to: 'x' } });
    await enqueueJob(database.db, { kind: 'mail', dedupeKey: 'later', runAt: new Date(Date.now() + 3_600_000) });
    await enqueueJob(database.db, { kind: 'unknown', dedupeKey: 'b' });
    expect(await r.runDue()).toBe(1);
    expect(await r.runDue()).toBe(0);
    expect(seen).toEqual([{ to: 'x' }]);
    const done = await rowOf('mail', 'a');
    expect(done).toMatchObject({ status: 'done', attempts: 1, result: { sent: true }, lastError: null, lockedUntil: null, leaseToken: null });
    expect(done.finishedAt).toBeInstanceOf(Date);
    expect((await rowOf('mail', 'later')).status).toBe('pending');
    expect((await rowOf('unknown', 'b')).status).toBe('pending');
  });

  it('several runners on one database run each job exactly once', async () => {
    const runs = new Map<string, number>();
    const runners = [runner({ batchSize: 2 }), runner({ batchSize: 2 }), runner({ batchSize: 2 })];
    for (const r of runners) {
      r.register('work', async (payload) => {
        const key = String(payload.key);
        runs.set(key, (runs.get(key) ?? 0) + 1);
        await sleep(5);
      });
    }
    for (let i = 0; i < 12; i += 1) await enqueueJob(database.db, { kind: 'work', dedupeKey: `k${i}`, payload: { key: `k${i}` } });
    const counts = await Promise.all(runners.map((r) => r.runDue()));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(12);
    expect([...runs.values()]).toEqual(Array(12).fill(1));
    const rows = await database.db.select().from(jobs).where(eq(jobs.kind, 'work'));
    expect(rows.every((j) => j.status === 'done' && j.attempts === 1)).toBe(true);
  });

  it('retries a failing job with backoff, then succeeds', async () => {
    let calls = 0;
    const r = runner({ backoff: (n) => (n === 1 ? 60_000 : 0) });
    r.register('flaky', async () => {
      calls += 1;
      if (calls < 3) throw new RetryableJobError(`temporary failure ${calls}`);
      return { ok: true };
    });
    await enqueueJob(database.db, { kind: 'flaky', dedupeKey: 'x' });
    expect(await r.runDue()).toBe(1);
    let row = await rowOf('flaky', 'x');
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastError: 'temporary failure 1' });
    // The first backoff is a minute: nothing runs now.
    expect(row.runAt.getTime()).toBeGreaterThan(Date.now() + 50_000);
    expect(await r.runDue()).toBe(0);
    await database.db.update(jobs).set({ runAt: new Date(Date.now() - 1000) }).where(eq(jobs.id, row.id));
    await r.runDue();
    row = await rowOf('flaky', 'x');
    expect(row).toMatchObject({ status: 'done', attempts: 3, lastError: null, result: { ok: true } });
    expect(calls).toBe(3);
  });

  it('fails at once on a permanent error, and after max attempts; Retry puts a failed job back', async () => {
    let permanentCalls = 0;
    const r = runner();
    r.register('refused', async () => { permanentCalls += 1; throw new PermanentJobError('refused by the supplier'); });
    r.register('always', async () => { throw new AppError(503, 'still down'); });
    await enqueueJob(database.db, { kind: 'refused', dedupeKey: 'p' });
    await enqueueJob(database.db, { kind: 'always', dedupeKey: 'a', maxAttempts: 3 });
    await r.runDue();
    expect(await rowOf('refused', 'p')).toMatchObject({ status: 'failed', attempts: 1, lastError: 'refused by the supplier' });
    expect(permanentCalls).toBe(1);
    expect(await rowOf('always', 'a')).toMatchObject({ status: 'failed', attempts: 3, lastError: 'still down' });

    const failed = await rowOf('refused', 'p');
    expect(await retryJob(database.db, failed.id)).toBe(true);
    expect(await rowOf('refused', 'p')).toMatchObject({ status: 'pending', attempts: 0, finishedAt: null });
    await r.runDue();
    expect(permanentCalls).toBe(2);
    // Only failed jobs can be retried.
    await enqueueJob(database.db, { kind: 'unregistered', dedupeKey: 'q' });
    expect(await retryJob(database.db, (await rowOf('unregistered', 'q')).id)).toBe(false);
  });

  it('keeps internal error text out of the job and the admin screens', async () => {
    const r = runner();
    r.register('crash', async () => { throw new TypeError('secret internal detail'); });
    await enqueueJob(database.db, { kind: 'crash', dedupeKey: 'c', maxAttempts: 1 });
    await r.runDue();
    expect(await rowOf('crash', 'c')).toMatchObject({ status: 'failed', lastError: 'Unexpected error (see the server log)' });
  });

  it("takes over a job whose instance died after its lease, and ignores the late finisher's result", async () => {
    let releaseFirst!: () => void;
    const firstBlocked = new Promise<void>((r) => { releaseFirst = r; });
    const started: string[] = [];
    const a = runner({ leaseMs: 1500 });
    const b = runner({ leaseMs: 1500 });
    a.register('send', async () => { started.push('a'); await firstBlocked; return { by: 'a' }; });
    b.register('send', async () => { started.push('b'); return { by: 'b' }; });
    await enqueueJob(database.db, { kind: 'send', dedupeKey: 'order-9' });

    const aRun = a.runDue();
    await expect.poll(() => started).toEqual(['a']);
    // While a holds the lease, b finds nothing to do.
    expect(await b.runDue()).toBe(0);
    await sleep(1700);
    expect(await b.runDue()).toBe(1);
    expect(await rowOf('send', 'order-9')).toMatchObject({ status: 'done', attempts: 2, result: { by: 'b' } });

    releaseFirst();
    await aRun;
    // a's lease was taken over: its outcome is not recorded.
    expect(await rowOf('send', 'order-9')).toMatchObject({ status: 'done', result: { by: 'b' } });
    expect(started).toEqual(['a', 'b']);
  });

  it('fails a job whose lease ran out on its last attempt instead of running it forever', async () => {
    const r = runner();
    let calls = 0;
    r.register('stuck', async () => { calls += 1; });
    const { id } = await enqueueJob(database.db, { kind: 'stuck', dedupeKey: 's', maxAttempts: 2 });
    await database.db.update(jobs).set({ status: 'running', attempts: 2, lockedUntil: new Date(Date.now() - 1000), leaseToken: 'dead' }).where(eq(jobs.id, id));
    await r.runDue();
    expect(calls).toBe(0);
    expect(await rowOf('stuck', 's')).toMatchObject({ status: 'failed', lastError: 'The job did not finish in time on its last attempt' });
  });

  it('schedules one job per period however many instances run', async () => {
    let t = Date.UTC(2025, 0, 1, 0, 0, 5);
    let runs = 0;
    const make = () => {
      const r = runner({ now: () => t });
      r.register('tick', async () => { runs += 1; });
      r.schedule('tick', 60_000);
      return r;
    };
    const [a, b] = [make(), make()];
    await Promise.all([a.runDue(), b.runDue()]);
    await a.runDue();
    expect(runs).toBe(1);
    t += 60_000;
    await Promise.all([a.runDue(), b.runDue()]);
    expect(runs).toBe(2);
    expect((await database.db.select().from(jobs).where(eq(jobs.kind, 'tick'))).length).toBe(2);
  });

  it('polls in the background once started and stops cleanly', async () => {
    const r = runner({ pollMs: 20 });
    let ran = 0;
    r.register('bg', async () => { ran += 1; });
    await enqueueJob(database.db, { kind: 'bg', dedupeKey: '1' });
    r.start();
    await expect.poll(() => ran, { timeout: 5000 }).toBe(1);
    await r.stop();
    await enqueueJob(database.db, { kind: 'bg', dedupeKey: '2' });
    await sleep(100);
    expect(ran).toBe(1);
  });

  it('records which instance claimed a job; periodic jobs run but are not counted by runDue', async () => {
    const r = runner({ instanceId: 'host-a:101' });
    r.register('work', async () => undefined);
    r.register('every', async () => undefined);
    r.schedule('every', 60_000);
    await enqueueJob(database.db, { kind: 'work', dedupeKey: 'w1' });
    expect(await r.runDue()).toBe(1);
    expect(await rowOf('work', 'w1')).toMatchObject({ status: 'done', claimedBy: 'host-a:101' });
    const periodic = await database.db.select().from(jobs).where(eq(jobs.kind, 'every'));
    expect(periodic).toMatchObject([{ status: 'done', claimedBy: 'host-a:101' }]);
    expect(r.instanceId).toBe('host-a:101');
    expect(runner().instanceId).toBe(`${hostname()}:${process.pid}`);
  });

  it('hands claimed jobs back, unstarted and uncounted, once half the lease has passed in their batch', async () => {
    // Half the lease (500 ms) leaves room for the first job to start on a busy machine; the job (700 ms) outlasts it.
    const r = runner({ leaseMs: 1_000, batchSize: 3 });
    const ran: string[] = [];
    r.register('slow', async (payload) => { ran.push(String(payload.n)); await sleep(700); });
    for (const n of [1, 2, 3]) await enqueueJob(database.db, { kind: 'slow', dedupeKey: `s${n}`, payload: { n } });
    expect(await r.runDue({ maxRounds: 1 })).toBe(1);
    const rows = await database.db.select().from(jobs).where(eq(jobs.kind, 'slow'));
    expect(rows.filter((j) => j.status === 'done')).toHaveLength(1);
    const back = rows.filter((j) => j.status === 'pending');
    expect(back).toHaveLength(2);
    expect(back.every((j) => j.attempts === 0 && j.leaseToken === null && j.lockedUntil === null)).toBe(true);
    // They run in later rounds, each once.
    await r.runDue();
    await r.runDue();
    expect(ran.sort()).toEqual(['1', '2', '3']);
    expect((await database.db.select().from(jobs).where(eq(jobs.kind, 'slow'))).every((j) => j.status === 'done' && j.attempts === 1)).toBe(true);
  });

  it('kick() runs a round at once on a started runner, without waiting for the poll', async () => {
    const r = runner({ pollMs: 60_000 });
    let ran = 0;
    r.register('now', async () => { ran += 1; });
    await enqueueJob(database.db, { kind: 'now', dedupeKey: 'before-start' });
    r.kick(); // not started: nothing happens
    await sleep(100);
    expect(ran).toBe(0);
    r.start();
    r.kick();
    await expect.poll(() => ran, { timeout: 5000 }).toBe(1);
    await enqueueJob(database.db, { kind: 'now', dedupeKey: 'after-start' });
    r.kick();
    r.kick(); // kicks while a round runs are folded into one more round
    await expect.poll(() => ran, { timeout: 5000 }).toBe(2);
    await r.stop();
  });

  it('prunes finished periodic jobs and finished jobs of the given kinds, older than the cut-off only', async () => {
    const old = new Date(Date.now() - 10 * 86_400_000);
    const recent = new Date();
    const make = async (kind: string, dedupeKey: string, status: 'done' | 'failed', finishedAt: Date) => {
      const { id } = await enqueueJob(database.db, { kind, dedupeKey });
      await database.db.update(jobs).set({ status, finishedAt }).where(eq(jobs.id, id));
    };
    await make('tick', 'period:60000:1', 'done', old);
    await make('tick', 'period:60000:2', 'done', recent);
    await make('tick', 'period:60000:3', 'failed', old);
    await make('mail.send', 'm1', 'done', old);
    await make('supplier.order', 'o1', 'done', old);
    expect(await pruneFinishedJobs(database.db, new Date(Date.now() - 7 * 86_400_000), ['mail.send'])).toBe(2);
    const left = (await database.db.select().from(jobs)).map((j) => j.dedupeKey).sort();
    expect(left).toEqual(['o1', 'period:60000:2', 'period:60000:3']);
  });

  it("a hung job holds back only its own kind: another kind's due job runs at the next poll, periodic jobs keep running", async () => {
    const pollMs = 100;
    const r = runner({ pollMs });
    let release!: () => void;
    const hung = new Promise<void>((resolve) => { release = resolve; });
    const started: string[] = [];
    r.register('hang', async (payload) => { started.push(String(payload.n)); await hung; });
    const ranAt = new Map<string, number>();
    r.register('quick', async (payload) => { ranAt.set(String(payload.n), Date.now()); });
    let ticks = 0;
    r.register('tick', async () => { ticks += 1; });
    r.schedule('tick', 300);
    await enqueueJob(database.db, { kind: 'hang', dedupeKey: 'h1', payload: { n: 1 }, runAt: new Date(Date.now() - 2000) });
    await enqueueJob(database.db, { kind: 'hang', dedupeKey: 'h2', payload: { n: 2 }, runAt: new Date(Date.now() - 1000) });
    r.start();
    try {
      await expect.poll(() => started, { timeout: 5000 }).toEqual(['1']);
      const delays: number[] = [];
      for (const n of ['1', '2', '3']) {
        // Enqueued without kick(): found by the poll, while the 'hang' job is still under way.
        const enqueuedAt = Date.now();
        await enqueueJob(database.db, { kind: 'quick', dedupeKey: `q${n}`, payload: { n } });
        await expect.poll(() => ranAt.has(n), { timeout: 5000, interval: 10 }).toBe(true);
        delays.push(ranAt.get(n)! - enqueuedAt);
      }
      // One poll plus the round's own queries (generous for a loaded machine); before lanes, never while 'hang' ran.
      expect(Math.max(...delays)).toBeLessThan(pollMs + 1500);
      // Periodic work keeps its period too.
      const ticksBefore = ticks;
      await expect.poll(() => ticks, { timeout: 5000 }).toBeGreaterThan(ticksBefore);
      // The hung kind's next job waits for it (one at a time per kind), claimed but unstarted.
      expect(started).toEqual(['1']);
      expect(await rowOf('hang', 'h1')).toMatchObject({ status: 'running', attempts: 1 });
      release();
      await expect.poll(() => started, { timeout: 5000 }).toEqual(['1', '2']);
      await expect.poll(async () => (await rowOf('hang', 'h2')).status, { timeout: 5000 }).toBe('done');
    } finally {
      release();
      await r.stop();
    }
    const rows = await database.db.select().from(jobs);
    expect(rows.filter((j) => j.kind !== 'tick').every((j) => j.status === 'done' && j.attempts === 1)).toBe(true);
  });

  it('runs one job per kind at a time and at most maxConcurrent jobs at once; the rest wait unclaimed', async () => {
    expect(runner().maxConcurrent).toBe(DEFAULT_MAX_CONCURRENT_JOBS);
    const r = runner({ maxConcurrent: 2 });
    let release!: () => void;
    const hung = new Promise<void>((resolve) => { release = resolve; });
    let running = 0;
    let most = 0;
    const started: string[] = [];
    for (const kind of ['a', 'b', 'c']) {
      r.register(kind, async (payload) => {
        started.push(`${kind}${String(payload.n)}`);
        running += 1;
        most = Math.max(most, running);
        await hung;
        running -= 1;
      });
      for (const n of [1, 2]) await enqueueJob(database.db, { kind, dedupeKey: `${kind}${n}`, payload: { n }, runAt: new Date(Date.now() - 10_000 + n) });
    }
    const run = r.runDue();
    await expect.poll(() => started.length, { timeout: 5000 }).toBe(2);
    await sleep(200);
    expect(started).toHaveLength(2);
    expect(new Set(started.map((s) => s[0])).size).toBe(2); // two kinds, one job each
    const waiting = (await database.db.select().from(jobs)).filter((j) => !started.includes(j.dedupeKey));
    // The third kind's jobs were not kept claimed: another instance may take them.
    const idleKind = ['a', 'b', 'c'].find((k) => !started.some((s) => s.startsWith(k)))!;
    expect(waiting.filter((j) => j.kind === idleKind).every((j) => j.status === 'pending' && j.attempts === 0)).toBe(true);
    release();
    expect(await run).toBe(6);
    expect(most).toBe(2);
    expect((await database.db.select().from(jobs)).every((j) => j.status === 'done' && j.attempts === 1)).toBe(true);
  });

  it('logs a failing round once (error with the stack), then a warning without stack at most every so often, and once when it recovers', async () => {
    let down = false;
    const dbError = new Error('connect ECONNREFUSED 127.0.0.1:5432');
    // The database as a runner sees it when the server is down: every statement fails.
    const flaky = new Proxy(database.db, {
      get(target, prop) {
        const value = Reflect.get(target, prop) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (down) throw dbError;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const lines: Array<{ level: number; msg: string; err?: { stack?: string }; failedRounds?: number; reason?: string }> = [];
    const captured = pino({ level: 'info' }, { write: (line: string) => { lines.push(JSON.parse(line) as (typeof lines)[number]); } });
    let skew = 0;
    const pollMs = 20;
    const r = createJobRunner({ db: flaky, log: captured, pollMs, backoff: () => 0, now: () => Date.now() + skew });
    let ran = 0;
    r.register('work', async () => { ran += 1; });
    r.schedule('work', 60_000);
    const about = (msg: string) => lines.filter((l) => l.msg.startsWith(msg));
    down = true;
    r.start();
    try {
      await sleep(pollMs * 15);
      await expect.poll(() => about('job round failed').length).toBe(1);
      const [first] = about('job round failed');
      expect(first).toMatchObject({ level: 50 });
      expect(first!.err?.stack).toContain('ECONNREFUSED');
      expect(about('job rounds still failing')).toHaveLength(0);
      // A minute later (on the runner's clock): one reminder, a warning without the stack.
      skew += ROUND_FAILURE_REMINDER_MS;
      await expect.poll(() => about('job rounds still failing').length, { timeout: 5000 }).toBe(1);
      await sleep(pollMs * 10);
      const reminders = about('job rounds still failing');
      expect(reminders).toHaveLength(1);
      expect(reminders[0]).toMatchObject({ level: 40, reason: 'connect ECONNREFUSED 127.0.0.1:5432' });
      expect(reminders[0]!.err).toBeUndefined();
      expect(reminders[0]!.failedRounds).toBeGreaterThan(5);
      // Back: one info line, and the work runs.
      down = false;
      await expect.poll(() => about('job rounds work again').length, { timeout: 5000 }).toBe(1);
      expect(about('job rounds work again')[0]).toMatchObject({ level: 30 });
      await expect.poll(() => ran, { timeout: 5000 }).toBe(1);
      await sleep(pollMs * 5);
      expect(about('job round failed')).toHaveLength(1);
      expect(lines.filter((l) => l.level >= 40)).toHaveLength(2);
    } finally {
      down = false;
      await r.stop();
    }
  });

  it('backs off exponentially up to an hour', () => {
    const mid = () => 0.5;
    expect(backoffMs(1, mid)).toBe(10_000);
    expect(backoffMs(2, mid)).toBe(20_000);
    expect(backoffMs(4, mid)).toBe(80_000);
    expect(backoffMs(20, mid)).toBe(3_600_000);
  });
});
