import { and, inArray, isNotNull, lte, or } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { emailChanges, passwordResets, refreshTokens, sessions, signupRequests } from '../../db/schema.ts';
import type { JobRunner } from '../../lib/jobs.ts';

/** The periodic job that deletes expired sign-in and e-mail-link rows (once per period across a fleet). */
export const AUTH_CLEANUP_JOB = 'users.cleanup';
/** Revoked sessions are kept this long (the device list and audits can still see them), then deleted. */
export const REVOKED_SESSION_KEEP_MS = 24 * 3_600_000;
const BATCH = 1000;

export interface AuthCleanupResult {
  sessions: number;
  refreshTokens: number;
  passwordResets: number;
  signupRequests: number;
  emailChanges: number;
}

/** Deletes rows in batches of ids selected by `where` until none is left; returns how many went. */
/**
 * Deletes what `select` finds, a batch at a time, and counts the rows this call deleted (not the rows
 * it selected: two cleanups that overlap, on two instances, select the same rows and only one deletes
 * each).
 */
async function deleteInBatches(select: () => Promise<Array<{ id: string }>>, remove: (ids: string[]) => Promise<Array<{ id: string }>>): Promise<number> {
  let total = 0;
  for (;;) {
    const ids = (await select()).map((r) => r.id);
    if (!ids.length) return total;
    total += (await remove(ids)).length;
    if (ids.length < BATCH) return total;
  }
}

/**
 * Deletes what can no longer be used, with the same answers to every client as before (an unknown
 * token is refused exactly like an expired or used one):
 * - sessions past their expiry, and sessions revoked more than a day ago (their refresh tokens go
 *   with them, ON DELETE CASCADE);
 * - refresh tokens past their expiry (used tokens of a live session are kept: presenting one again
 *   is how reuse is detected);
 * - password-reset, sign-up and e-mail change links that expired, were used or were cancelled.
 * Rate-limit counters are not in the database (Redis keys expire on their own; the in-memory limiter
 * sweeps itself).
 */
export async function deleteExpiredAuthRows(db: Executor, now: Date = new Date()): Promise<AuthCleanupResult> {
  const revokedBefore = new Date(now.getTime() - REVOKED_SESSION_KEEP_MS);
  const refreshTokensDeleted = await deleteInBatches(
    () => db.select({ id: refreshTokens.id }).from(refreshTokens).where(lte(refreshTokens.expiresAt, now)).limit(BATCH),
    (ids) => db.delete(refreshTokens).where(inArray(refreshTokens.id, ids)).returning({ id: refreshTokens.id }),
  );
  const sessionsDeleted = await deleteInBatches(
    () => db.select({ id: sessions.id }).from(sessions)
      .where(or(lte(sessions.expiresAt, now), lte(sessions.revokedAt, revokedBefore))).limit(BATCH),
    (ids) => db.delete(sessions).where(inArray(sessions.id, ids)).returning({ id: sessions.id }),
  );
  const resetsDeleted = await deleteInBatches(
    () => db.select({ id: passwordResets.id }).from(passwordResets)
      .where(or(lte(passwordResets.expiresAt, now), and(isNotNull(passwordResets.usedAt), lte(passwordResets.usedAt, now)))).limit(BATCH),
    (ids) => db.delete(passwordResets).where(inArray(passwordResets.id, ids)).returning({ id: passwordResets.id }),
  );
  const signupsDeleted = await deleteInBatches(
    () => db.select({ id: signupRequests.id }).from(signupRequests)
      .where(or(lte(signupRequests.expiresAt, now), and(isNotNull(signupRequests.usedAt), lte(signupRequests.usedAt, now)))).limit(BATCH),
    (ids) => db.delete(signupRequests).where(inArray(signupRequests.id, ids)).returning({ id: signupRequests.id }),
  );
  const emailChangesDeleted = await deleteInBatches(
    () => db.select({ id: emailChanges.id }).from(emailChanges)
      .where(or(
        lte(emailChanges.expiresAt, now),
        and(isNotNull(emailChanges.confirmedAt), lte(emailChanges.confirmedAt, now)),
        and(isNotNull(emailChanges.cancelledAt), lte(emailChanges.cancelledAt, now)),
      )).limit(BATCH),
    (ids) => db.delete(emailChanges).where(inArray(emailChanges.id, ids)).returning({ id: emailChanges.id }),
  );
  return {
    sessions: sessionsDeleted, refreshTokens: refreshTokensDeleted, passwordResets: resetsDeleted, signupRequests: signupsDeleted,
    emailChanges: emailChangesDeleted,
  };
}

/** Registers the cleanup on the instance's job runner, once per `everyMs` across the fleet. */
export function registerAuthCleanup(jobs: JobRunner, db: Executor, everyMs: number): void {
  jobs.register(AUTH_CLEANUP_JOB, async () => ({ ...(await deleteExpiredAuthRows(db)) }));
  jobs.schedule(AUTH_CLEANUP_JOB, everyMs);
}
