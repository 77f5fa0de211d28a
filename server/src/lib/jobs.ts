/**
 * Durable background jobs: a small outbox runner on the `jobs` table, the same on PGlite and
 * PostgreSQL.
 *
 * - Enqueue with `enqueueJob(tx, { kind, dedupeKey, payload })` inside the transaction that causes the
 *   work (the job exists exactly when the change committed). `(kind, dedupeKey)` is unique: a second
 *   enqueue of the same work is a no-op, so a replayed request never makes a second job. A change
 *   made by one hand-written statement writes its job in that statement (`jobInsertSql`, a CTE).
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
 * - Each kind has its own lane on an instance: a kind's claimed jobs run one at a time, in order
 *   (outside services such as the supplier limit request rates), while other kinds' jobs run beside
 *   them, at most `maxConcurrent` at once. Every poll claims for the kinds whose lane is idle, so a
 *   slow or hung job (an SMTP server that never answers) holds back only its own kind, never the
 *   unpaid-order expiry or the chat's fallback answer. An instance never claims a kind whose lane is
 *   busy, so it cannot take over its own job; across instances the lease keeps a job to one holder.
 * - While rounds fail (the database is down) the runner logs one error, then a warning without the
 *   stack at most every ROUND_FAILURE_REMINDER_MS, then one info line when rounds work again.
 *
 * Statuses: pending -> running -> done | pending (retry later) | failed.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { and, asc, eq, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
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

/**
 * The INSERT of a job made by a hand-written statement that makes the change itself (a data-modifying
 * CTE of that statement: `with written as (...), job as (${jobInsertSql(...)}) select ...`): the job
 * exists exactly when the change committed, at no extra round trip. One job per row of `source` (a
 * FROM item over the statement's CTEs, at most one row: the id is made here), none when the change
 * wrote nothing; `dedupeKey` and `payload` are SQL over that row. A key already queued makes no
 * second job, as with enqueueJob.
 */
export function jobInsertSql(input: { kind: string; dedupeKey: SQL; payload: SQL; maxAttempts?: number }, source: SQL): SQL {
  return sql`insert into ${jobs} (id, kind, dedupe_key, payload, max_attempts)
    select ${newId()}::char(24), ${input.kind}::text, ${input.dedupeKey}, ${input.payload}, ${input.maxAttempts ?? DEFAULT_MAX_ATTEMPTS}::int
    from ${source}
    on conflict (kind, dedupe_key) do nothing`;
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
  /** Jobs claimed per claim (a round claims again while batches come back full and kinds are idle). */
  batchSize?: number;
  /**
   * Jobs running at once on this instance (default DEFAULT_MAX_CONCURRENT_JOBS). Jobs of one kind
   * always run one at a time; jobs of different kinds run side by side.
   */
  maxConcurrent?: number;
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
   * Claims and runs due jobs until none is left (or `maxRounds`), waiting for every job under way;
   * returns how many queued jobs ran. Periodic jobs (`schedule`) run too but are not counted: when
   * they fall due depends on the clock.
   */
  runDue(opts?: { maxRounds?: number }): Promise<number>;
  readonly kinds: string[];
  /** How long a claim lasts (handlers bound their own waits below it). */
  readonly leaseMs: number;
  /** At most this many jobs (each of another kind) run at once on this instance. */
  readonly maxConcurrent: number;
  readonly instanceId: string;
}

function safeErrorMessage(err: unknown): string | null {
  if (err instanceof PermanentJobError || err instanceof RetryableJobError || err instanceof AppError) {
    return err.message.slice(0, MAX_ERROR_LENGTH);
  }
  return null;
}

/** Jobs of different kinds run side by side on an instance, at most this many at a time. */
export const DEFAULT_MAX_CONCURRENT_JOBS = 8;
/** While job rounds keep failing (the database is down), a reminder is logged at most this often. */
export const ROUND_FAILURE_REMINDER_MS = 60_000;

interface Claimed { row: JobRow; token: string }

/** The runner of one app instance. */
export function createJobRunner(opts: JobRunnerOptions): JobRunner {
  const { db, log } = opts;
  const leaseMs = opts.leaseMs ?? 120_000;
  const batchSize = opts.batchSize ?? 5;
  const maxConcurrent = Math.max(1, opts.maxConcurrent ?? DEFAULT_MAX_CONCURRENT_JOBS);
  const backoff = opts.backoff ?? ((n: number) => backoffMs(n));
  const now = opts.now ?? Date.now;
  const instanceId = opts.instanceId ?? `${hostname()}:${process.pid}`;
  const handlers = new Map<string, JobHandler>();
  const schedules: Array<{ kind: string; everyMs: number; payload: JobPayload }> = [];
  /** The lane of each kind with claimed jobs on this instance: they run one at a time, in claim order. */
  const lanes = new Map<string, Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  /** The claim round under way (one at a time per instance). */
  let round: Promise<number> | null = null;
  /** The runDue() under way (calls queue behind each other). */
  let draining: Promise<number> | null = null;
  let stopped = false;
  let started = false;
  let kicked = false;
  let kickQueued = false;
  /** Queued (not periodic) jobs run so far, for runDue's count. */
  let ran = 0;
  /** Set while rounds fail (the database is down): logged once, then reminders, then recovery. */
  let outage: { since: number; failures: number; loggedAt: number } | null = null;

  /** When this instance last failed the jobs whose lease ran out on their last attempt. */
  let exhaustedAt = -Infinity;
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

  async function claim(kinds: string[]): Promise<Claimed[]> {
    const token = randomBytes(12).toString('hex');
    // One statement (no transaction around a select and an update): the due rows are locked by the
    // subquery (skipping those another instance holds) and updated at once. `= any(array(...))`
    // evaluates the subquery once, so never more than batchSize rows are claimed.
    const due = db.select({ id: jobs.id }).from(jobs)
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
    const rows = await db.update(jobs)
      .set({
        status: 'running',
        attempts: sql`${jobs.attempts} + 1`,
        lockedUntil: sql`now() + (${String(leaseMs)}::int * interval '1 millisecond')`,
        leaseToken: token,
        claimedBy: instanceId,
        updatedAt: sql`now()`,
      })
      .where(sql`${jobs.id} = any(array(${due}))`)
      .returning();
    // Oldest first, as selected (UPDATE ... RETURNING does not promise the SELECT's order).
    return rows
      .sort((a, b) => a.runAt.getTime() - b.runAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((row) => ({ row, token }));
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

  /** Returns claimed jobs not started yet to the queue, as if never claimed (attempt not counted). */
  async function handBack(rest: Claimed[]): Promise<void> {
    for (const { row, token } of rest) {
      await db.update(jobs)
        .set({ status: 'pending', attempts: sql`greatest(${jobs.attempts} - 1, 0)`, lockedUntil: null, leaseToken: null, updatedAt: sql`now()` })
        .where(ownedBy(row.id, token));
    }
  }

  /**
   * Runs the claimed jobs of one kind one after the other (a kind's own order and pace, e.g. the
   * supplier's request rate), beside the lanes of other kinds: a slow or hung job holds back only
   * its own kind. A job still waiting after half the lease is handed back unstarted.
   */
  function startLane(kind: string, claimed: Claimed[], claimedAt: number): void {
    const lane = (async () => {
      for (const [i, { row, token }] of claimed.entries()) {
        if (stopped || now() - claimedAt > leaseMs / 2) {
          await handBack(claimed.slice(i));
          return;
        }
        await runOne(row, token);
        if (!row.dedupeKey.startsWith(PERIOD_KEY_PREFIX)) ran += 1;
      }
    })()
      .catch((err: unknown) => roundFailed(err))
      .finally(() => {
        lanes.delete(kind);
        kick(); // more of this kind may be due (a batch holds at most batchSize jobs)
      });
    lanes.set(kind, lane);
  }

  /**
   * One round: enqueues this period's periodic jobs, then claims due jobs of the kinds with no lane
   * under way (while there is room under maxConcurrent) and starts their lanes. Does not wait for
   * the jobs. Returns how many jobs it started lanes for.
   */
  async function claimRound(): Promise<number> {
    const kinds = [...handlers.keys()];
    if (!kinds.length || stopped) return 0;
    await enqueueScheduled();
    // Maintenance, at most once per poll (rounds kicked by finished lanes follow each other under load).
    if (opts.pollMs <= 0 || now() - exhaustedAt >= opts.pollMs) {
      await failExhaustedLeases(kinds);
      exhaustedAt = now();
    }
    let dispatched = 0;
    while (!stopped) {
      const free = kinds.filter((k) => !lanes.has(k));
      const room = maxConcurrent - lanes.size;
      if (!free.length || room <= 0) break;
      const claimedAt = now();
      const claimed = await claim(free);
      if (!claimed.length) break;
      const byKind = new Map<string, Claimed[]>();
      for (const c of claimed) byKind.set(c.row.kind, [...(byKind.get(c.row.kind) ?? []), c]);
      const later: Claimed[] = [];
      let lanesStarted = 0;
      for (const [kind, list] of byKind) {
        if (stopped || lanesStarted >= room) later.push(...list);
        else {
          startLane(kind, list, claimedAt);
          lanesStarted += 1;
          dispatched += list.length;
        }
      }
      if (later.length) await handBack(later); // no room: a later round takes them
      if (claimed.length < batchSize) break; // all that was due for these kinds
    }
    return dispatched;
  }

  /** One error line when rounds start failing, a warning (no stack) at most every so often, one line when they recover. */
  function roundFailed(err: unknown): void {
    const at = now();
    if (!outage) {
      outage = { since: at, failures: 1, loggedAt: at };
      log.error({ err }, 'job round failed; background jobs wait until the database answers again');
      return;
    }
    outage.failures += 1;
    if (at - outage.loggedAt >= ROUND_FAILURE_REMINDER_MS) {
      outage.loggedAt = at;
      const reason = (err instanceof Error ? err.message : String(err)).slice(0, MAX_ERROR_LENGTH);
      log.warn({ failedRounds: outage.failures, failingForMs: at - outage.since, reason }, 'job rounds still failing');
    }
  }

  function roundSucceeded(): void {
    if (!outage) return;
    log.info({ failedRounds: outage.failures, failedForMs: now() - outage.since }, 'job rounds work again');
    outage = null;
  }

  /** Starts a round unless one is under way (then returns that one). Failures are logged here. */
  function startRound(): Promise<number> {
    if (round) return round;
    const current = claimRound()
      .then((n) => {
        roundSucceeded();
        return n;
      }, (err: unknown) => {
        roundFailed(err);
        throw err;
      })
      .finally(() => {
        if (round === current) round = null;
        if (kicked) {
          kicked = false;
          kick();
        }
      });
    round = current;
    return current;
  }

  async function settleLanes(): Promise<void> {
    while (lanes.size) await Promise.all(lanes.values());
  }

  async function drain(maxRounds: number): Promise<number> {
    const before = ran;
    for (let i = 0; i < maxRounds && !stopped; i += 1) {
      while (round) await round.catch(() => undefined);
      const dispatched = await startRound();
      const busy = lanes.size > 0;
      await settleLanes();
      if (!dispatched && !busy) break;
    }
    return ran - before;
  }

  function runDue(runOpts: { maxRounds?: number } = {}): Promise<number> {
    if (draining) return draining.catch(() => undefined).then(() => runDue(runOpts));
    const current = drain(runOpts.maxRounds ?? 20).finally(() => {
      if (draining === current) draining = null;
    });
    draining = current;
    return current;
  }

  function kick(): void {
    if (!started || stopped) return;
    if (round) {
      kicked = true;
      return;
    }
    if (kickQueued) return;
    kickQueued = true;
    setImmediate(() => {
      kickQueued = false;
      if (stopped) return;
      if (round) {
        kicked = true;
        return;
      }
      startRound().catch(() => undefined); // logged by startRound
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
      // Every poll claims for the kinds that are idle, even while other kinds' jobs are still running.
      timer = setInterval(() => {
        if (round) return;
        startRound().catch(() => undefined); // logged by startRound
      }, opts.pollMs);
      timer.unref();
    },
    kick,
    async stop() {
      stopped = true;
      started = false;
      if (timer) clearInterval(timer);
      timer = null;
      if (round) await round.catch(() => undefined);
      await settleLanes();
      if (draining) await draining.catch(() => undefined);
    },
    runDue,
    get kinds() {
      return [...handlers.keys()];
    },
    leaseMs,
    maxConcurrent,
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
