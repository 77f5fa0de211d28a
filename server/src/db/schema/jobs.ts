import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAtColumn as createdAt, idColumn as id } from './users.ts';

export type JobStatus = 'pending' | 'running' | 'done' | 'failed';

/**
 * Durable background jobs (see lib/jobs.ts): enqueued in the transaction that causes them, claimed
 * with FOR UPDATE SKIP LOCKED under a lease, retried with backoff. (kind, dedupe_key) is unique.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: id().primaryKey(),
    kind: text('kind').notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    status: text('status').$type<JobStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(10),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    leaseToken: text('lease_token'),
    lastError: text('last_error'),
    result: jsonb('result').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** The instance (host:pid) that last claimed the job (0014). */
    claimedBy: text('claimed_by'),
  },
  (t) => [
    uniqueIndex('jobs_kind_dedupe_key').on(t.kind, t.dedupeKey),
    index('jobs_pending_run_at_idx').on(t.runAt).where(sql`status = 'pending'`),
    index('jobs_running_locked_until_idx').on(t.lockedUntil).where(sql`status = 'running'`),
    index('jobs_kind_created_at_idx').on(t.kind, t.createdAt.desc(), t.id.desc()),
    check('jobs_status_check', sql`${t.status} IN ('pending', 'running', 'done', 'failed')`),
    check('jobs_attempts_nonneg', sql`${t.attempts} >= 0`),
    check('jobs_max_attempts_positive', sql`${t.maxAttempts} >= 1`),
  ],
);
