/**
 * Durable background jobs: a small outbox runner on the `jobs` table, the same on PGlite and
 * PostgreSQL.
 *
 * - Enqueue with `enqueueJob(tx, { kind, dedupeKey, payload })` inside the transaction that causes the
 *   work (the job exists exactly when the change committed). `(kind, dedupeKey)` is unique: a second
 *   enqueue of the same work is a no-op, so a replayed request never makes a second job.
 * - A runner (`createJobRunner`, one per app instance, `app.ctx.jobs`) claims due jobs of the kinds it
 *   has handlers for with `FOR UPDATE SKIP LOCKED`, under a lease (`locked_until`). Several instances
 *   therefore never run the same job at once; a job claimed by an instance that died is claimed again
 *   once its lease has passed. A claim carries a fresh `lease_token`: only the holder of the current
 *   lease can record the outcome.
 * - A handler that throws is retried with exponential backoff (`run_at`) until `max_attempts`, then
 *   the job is `failed` with `last_error`. Throw `PermanentJobError` to fail at once (retrying cannot
 *   help). `retryJob` puts a failed job back in the queue (an administrator's Retry).
 * - Delivery is at-least-once: a handler may run again after a crash mid-way, so it must be
 *   idempotent towards the outside world (send our own id as the idempotency key).
 * - `schedule(kind, everyMs)` enqueues one job per period (dedupe key = the period), so a periodic
 *   task runs once per period however many instances are up.
 * - Every instance of a fleet runs the same runner on the same table: this is the one mechanism for
 *   all background work (unpaid-order expiry, the mail outbox, cleanup of expired rows, supplier
 *   orders). `claimed_by` records the instance (host:pid) holding or last holding a job. A claimed
 *   job that has waited in its batch for more than half its lease is handed back rather than started
 *   late (another instance may take it when the lease ends, and it must not run twice at once).
 *
 * Statuses: pending -> running -> done | pending (retry later) | failed.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { and, asc, eq, inArray, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../db/client.ts';
import { jobs, type JobStatus } from '../db/schema.ts';
import { AppError } from './errors.ts';
import { newId } from './ids.ts';

export type JobRow = typeof jobs.$inferSelect;
export type JobPayload = Record<string, unknown>;
export type JobResult = Record<string, unknown>;

export interface JobContext {
  job: JobRow;
  log: FastifyBaseLogger;
}

/** Does the work of one job; what it returns is stored as the job's `result`. */
export type JobHandler = (payload: JobPayload, ctx: JobContext) => Promise<JobResult | void>;

/** Thrown by a handler when retrying cannot help (bad data, refused by the remote side). */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentJobError';
  }
}

/** Thrown by a handler whose message is safe to show to an administrator, to be retried later. */
export class RetryableJobError extends Error {
  constructor(message: string, public readonly retryAfterMs?: number) {
    super(message);
    this.name = 'RetryableJobError';
  }
}

export const DEFAULT_MAX_ATTEMPTS = 10;
/** Dedupe keys of periodic jobs (`schedule`): `period:<everyMs>:<period number>`. */
const PERIOD_KEY_PREFIX = 'period:';
const MAX_ERROR_LENGTH = 500;

/** Backoff before attempt n+1 after n failed attempts: 10 s, 20 s, 40 s, ... capped at 1 hour, with jitter. */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(10_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
  return Math.round(base * (0.8 + random() * 0.4));
}

export interface EnqueueInput {
  kind: string;
  /** Unique per kind: enqueueing the same key again does nothing. */
  dedupeKey: string;
  payload?: JobPayload;
  runAt?: Date;
  maxAttempts?: number;
}

/** Adds a job (use the caller's transaction). Returns the job's id and whether this call created it. */
export async function enqueueJob(db: Executor, input: EnqueueInput): Promise<{ id: string; created: boolean }> {
  const id = newId();
  const inserted = await db.insert(jobs).values({
    id,
    kind: input.kind,
    dedupeKey: input.dedupeKey,
    payload: input.payload ?? {},
    maxAttempts: input.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    ...(input.runAt ? { runAt: input.runAt } : {}),
  }).onConflictDoNothing({ target: [jobs.kind, jobs.dedupeKey] }).returning({ id: jobs.id });
  if (inserted.length) return { id, created: true };
  const [existing] = await db.select({ id: jobs.id }).from(jobs)
    .where(and(eq(jobs.kind, input.kind), eq(jobs.dedupeKey, input.dedupeKey))).limit(1);
  return { id: existing?.id ?? id, created: false };
}

/** The job of a kind and key, if any. */
export async function findJob(db: Executor, kind: string, dedupeKey: string): Promise<JobRow | undefined> {
  const [row] = await db.select().from(jobs).where(and(eq(jobs.kind, kind), eq(jobs.dedupeKey, dedupeKey))).limit(1);
  return row;
}

/**
 * Puts a failed job back in the queue to run now, with a fresh set of attempts. Returns false when
 * the job is not failed (pending, running and done jobs are left alone).
 */
export async function retryJob(db: Executor, id: string): Promise<boolean> {
  const updated = await db.update(jobs)
    .set({ status: 'pending', attempts: 0, runAt: sql`now()`, lockedUntil: null, leaseToken: null, finishedAt: null, updatedAt: sql`now()` })
    .where(and(eq(jobs.id, id), eq(jobs.status, 'failed')))
    .returning({ id: jobs.id });
  return updated.length > 0;
}

export interface JobRunnerOptions {
  db: Db;
  log: FastifyBaseLogger;
  /** How often to look for due jobs; 0 disables polling (call `runDue()` yourself, as tests do). */
  pollMs: number;
  /** How long a claim lasts before another instance may take the job over. */
  leaseMs?: number;
  /** Jobs claimed per round. */
  batchSize?: number;
  backoff?: (attempts: number) => number;
  now?: () => number;
  /** Recorded in `claimed_by` (default host:pid). */
  instanceId?: string;
}

export interface JobRunner {
  /** Registers the handler of a kind; only registered kinds are claimed by this instance. */
  register(kind: string, handler: JobHandler): void;
  /** Enqueues one job of `kind` per period of `everyMs` (the first on the next round). */
  schedule(kind: string, everyMs: number, payload?: JobPayload): void;
  start(): void;
  /**
   * Asks for a round soon (after something was enqueued here), instead of at the next poll. Does
   * nothing when polling is off (tests call `runDue()` themselves) or the runner is stopped.
   */
  kick(): void;
  /** Stops polling and waits for the jobs under way. */
  stop(): Promise<void>;
  /**
   * Claims and runs due jobs until none is left (or `maxRounds`); returns how many queued jobs ran.
   * Periodic jobs (`schedule`) run too but are not counted: when they fall due depends on the clock.
   */
  runDue(opts?: { maxRounds?: number }): Promise<number>;
  readonly kinds: string[];
  /** How long a claim lasts (handlers bound their own waits below it). */
  readonly leaseMs: number;
  readonly instanceId: string;
}

function safeErrorMessage(err: unknown): string | null {
  if (err instanceof PermanentJobError || err instanceof RetryableJobError || err instanceof AppError) {
    return err.message.slice(0, MAX_ERROR_LENGTH);
  }
  return null;
}

/** The runner of one app instance. */
export function createJobRunner(opts: JobRunnerOptions): JobRunner {
  const { db, log } = opts;
  const leaseMs = opts.leaseMs ?? 120_000;
  const batchSize = opts.batchSize ?? 5;
  const backoff = opts.backoff ?? ((n: number) => backoffMs(n));
  const now = opts.now ?? Date.now;
  const instanceId = opts.instanceId ?? `${hostname()}:${process.pid}`;
  const handlers = new Map<string, JobHandler>();
  const schedules: Array<{ kind: string; everyMs: number; payload: JobPayload }> = [];
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let stopped = false;
  let started = false;
  let kicked = false;

  async function enqueueScheduled(): Promise<void> {
    for (const s of schedules) {
      const period = Math.floor(now() / s.everyMs);
      await enqueueJob(db, { kind: s.kind, dedupeKey: `${PERIOD_KEY_PREFIX}${s.everyMs}:${period}`, payload: s.payload, maxAttempts: 3 });
    }
  }

  /** Jobs whose lease ran out on their last attempt are failed rather than run again forever. */
  async function failExhaustedLeases(kinds: string[]): Promise<void> {
    await db.update(jobs)
      .set({
        status: 'failed', lockedUntil: null, leaseToken: null, finishedAt: sql`now()`, updatedAt: sql`now()`,
        lastError: 'The job did not finish in time on its last attempt',
      })
      .where(and(
        inArray(jobs.kind, kinds), eq(jobs.status, 'running'), lte(jobs.lockedUntil, sql`now()`),
        sql`${jobs.attempts} >= ${jobs.maxAttempts}`,
      ));
  }

  async function claim(kinds: string[]): Promise<Array<{ row: JobRow; token: string }>> {
    const token = randomBytes(12).toString('hex');
    const rows = await db.transaction(async (tx) => {
      const due = await tx.select({ id: jobs.id }).from(jobs)
        .where(and(
          inArray(jobs.kind, kinds),
          or(
            and(eq(jobs.status, 'pending'), lte(jobs.runAt, sql`now()`)),
            and(eq(jobs.status, 'running'), lte(jobs.lockedUntil, sql`now()`), sql`${jobs.attempts} < ${jobs.maxAttempts}`),
          ),
        ))
        .orderBy(asc(jobs.runAt), asc(jobs.id))
        .limit(batchSize)
        .for('update', { skipLocked: true });
      if (!due.length) return [];
      return tx.update(jobs)
        .set({
          status: 'running',
          attempts: sql`${jobs.attempts} + 1`,
          lockedUntil: sql`now() + (${String(leaseMs)}::int * interval '1 millisecond')`,
          leaseToken: token,
          claimedBy: instanceId,
          updatedAt: sql`now()`,
        })
        .where(inArray(jobs.id, due.map((d) => d.id)))
        .returning();
    });
    return rows.map((row) => ({ row, token }));
  }

  const ownedBy = (id: string, token: string) => and(eq(jobs.id, id), eq(jobs.leaseToken, token), eq(jobs.status, 'running'));

  async function runOne(row: JobRow, token: string): Promise<void> {
    const handler = handlers.get(row.kind);
    if (!handler) return;
    try {
      const result = await handler(row.payload, { job: row, log });
      const done = await db.update(jobs)
        .set({
          status: 'done', result: result ?? null, lockedUntil: null, leaseToken: null, lastError: null,
          finishedAt: sql`now()`, updatedAt: sql`now()`,
        })
        .where(ownedBy(row.id, token))
        .returning({ id: jobs.id });
      if (!done.length) log.warn({ jobId: row.id, kind: row.kind }, 'job finished after its lease passed to another run');
    } catch (err) {
      const message = safeErrorMessage(err);
      if (!message) log.error({ err, jobId: row.id, kind: row.kind }, 'job failed');
      else log.warn({ jobId: row.id, kind: row.kind, attempt: row.attempts, reason: message }, 'job attempt failed');
      const lastError = message ?? 'Unexpected error (see the server log)';
      const permanent = err instanceof PermanentJobError || row.attempts >= row.maxAttempts;
      const delay = err instanceof RetryableJobError && err.retryAfterMs !== undefined ? err.retryAfterMs : backoff(row.attempts);
      const status: JobStatus = permanent ? 'failed' : 'pending';
      await db.update(jobs)
        .set({
          status, lastError, lockedUntil: null, leaseToken: null, updatedAt: sql`now()`,
          ...(permanent
            ? { finishedAt: sql`now()` }
            : { runAt: sql`now() + (${String(Math.max(0, Math.round(delay)))}::int * interval '1 millisecond')` }),
        })
        .where(ownedBy(row.id, token));
    }
  }

  async function drain(maxRounds: number): Promise<number> {
    const kinds = [...handlers.keys()];
    if (!kinds.length) return 0;
    await enqueueScheduled();
    await failExhaustedLeases(kinds);
    let count = 0;
    for (let round = 0; round < maxRounds && !stopped; round += 1) {
      const claimedAt = now();
      const claimed = await claim(kinds);
      if (!claimed.length) break;
      // One at a time: outside services (the supplier) limit request rates.
      for (const [i, { row, token }] of claimed.entries()) {
        if (stopped || now() - claimedAt > leaseMs / 2) {
          await handBack(claimed.slice(i));
          break;
        }
        await runOne(row, token);
        if (!row.dedupeKey.startsWith(PERIOD_KEY_PREFIX)) count += 1;
      }
    }
    return count;
  }

  /** Returns claimed jobs not started yet to the queue, as if never claimed (attempt not counted). */
  async function handBack(rest: Array<{ row: JobRow; token: string }>): Promise<void> {
    for (const { row, token } of rest) {
      await db.update(jobs)
        .set({ status: 'pending', attempts: sql`greatest(${jobs.attempts} - 1, 0)`, lockedUntil: null, leaseToken: null, updatedAt: sql`now()` })
        .where(ownedBy(row.id, token));
    }
  }

  function runDue(runOpts: { maxRounds?: number } = {}): Promise<number> {
    if (running) return running.then(() => runDue(runOpts));
    running = drain(runOpts.maxRounds ?? 20).finally(() => {
      running = null;
      if (kicked) {
        kicked = false;
        kick();
      }
    });
    return running;
  }

  function kick(): void {
    if (!started || stopped) return;
    if (running) {
      kicked = true;
      return;
    }
    setImmediate(() => {
      if (running || stopped) {
        if (running) kicked = true;
        return;
      }
      runDue().catch((err: unknown) => log.error({ err }, 'job round failed'));
    });
  }

  return {
    register(kind, handler) {
      handlers.set(kind, handler);
    },
    schedule(kind, everyMs, payload = {}) {
      schedules.push({ kind, everyMs, payload });
    },
    start() {
      if (timer || opts.pollMs <= 0) return;
      stopped = false;
      started = true;
      timer = setInterval(() => {
        if (running) return;
        runDue().catch((err: unknown) => log.error({ err }, 'job round failed'));
      }, opts.pollMs);
      timer.unref();
    },
    kick,
    async stop() {
      stopped = true;
      started = false;
      if (timer) clearInterval(timer);
      timer = null;
      if (running) await running.catch(() => undefined);
    },
    runDue,
    get kinds() {
      return [...handlers.keys()];
    },
    leaseMs,
    instanceId,
  };
}

/**
 * Deletes finished periodic jobs (dedupe key `period:...`) and finished jobs of the given kinds
 * (`alsoKinds`, e.g. sent mail) that ended before `before`. Other jobs (supplier orders, which the
 * back office lists, and failed jobs) are kept. Returns how many rows went.
 */
export async function pruneFinishedJobs(db: Executor, before: Date, alsoKinds: string[] = []): Promise<number> {
  const periodic = sql`${jobs.dedupeKey} LIKE ${`${PERIOD_KEY_PREFIX}%`}`;
  const kindsClause = alsoKinds.length ? or(periodic, inArray(jobs.kind, alsoKinds)) : periodic;
  const deleted = await db.delete(jobs)
    .where(and(eq(jobs.status, 'done'), lte(jobs.finishedAt, before), kindsClause))
    .returning({ id: jobs.id });
  return deleted.length;
}
