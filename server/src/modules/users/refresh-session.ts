import { REFRESH_TOKEN_MISSING, REFRESH_TOKEN_REUSED, SESSION_EXPIRED } from '@shop/contracts';
import { and, eq, gt, gte, isNull, ne, or } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { refreshTokens, sessions, users } from '../../db/schema.ts';
import { issueRefreshToken, revokeSession } from '../../lib/auth.ts';
import { AppError } from '../../lib/errors.ts';
import { hashToken } from '../../lib/tokens.ts';
import type { SessionDeps, SessionTokens } from './auth-deps.ts';
import type { UserRow } from './users.queries.ts';

/**
 * How long a just-rotated refresh token may be presented again without counting as reuse. Tabs of one
 * browser share the refresh cookie, so two of them refreshing at once (e.g. after the laptop slept)
 * present the same token: one rotates it, the other arrives a moment later with the spent token while
 * its browser is receiving the winner's new cookies.
 */
export const REFRESH_REUSE_GRACE_MS = 20_000;

type Outcome =
  | { kind: 'rotated'; user: UserRow; sessionId: string; refreshToken: string }
  | { kind: 'grace' }
  | { kind: 'reused'; sessionId: string }
  | { kind: 'invalid' };

/**
 * Rotates a refresh token: the presented one is marked used and a new one is issued for the same
 * session, whose expiry slides forward. Presenting a token that was already used means it was copied:
 * the whole session is revoked, so neither party can go on with it.
 *
 * One exception, for tabs sharing the cookie: the token spent by the session's latest rotation,
 * presented again within REFRESH_REUSE_GRACE_MS while the session is live and the successor is still
 * unused, is answered with `{ user: null, tokens: null }`: nothing is issued (the caller's browser
 * already holds the successor) and nothing about the account is told, so a copied token replayed in
 * the window gains neither a session nor the profile. Later, or for a token older than the latest
 * rotation, reuse revokes the session as above.
 */
export async function refreshSession(
  deps: SessionDeps,
  presented: string | undefined,
): Promise<{ user: UserRow; tokens: SessionTokens } | { user: null; tokens: null }> {
  if (!presented) throw new AppError(401, REFRESH_TOKEN_MISSING, 'REFRESH_TOKEN_MISSING');
  const tokenHash = hashToken(presented);

  const outcome = await deps.db.transaction(async (tx): Promise<Outcome> => {
    const now = new Date();
    // The conditional update is the single point where a token can be spent, even under concurrency.
    const [spent] = await tx
      .update(refreshTokens)
      .set({ usedAt: now })
      .where(and(eq(refreshTokens.tokenHash, tokenHash), isNull(refreshTokens.usedAt), gt(refreshTokens.expiresAt, now)))
      .returning({ sessionId: refreshTokens.sessionId });
    if (!spent) {
      const [known] = await tx
        .select({ sessionId: refreshTokens.sessionId, usedAt: refreshTokens.usedAt })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, tokenHash))
        .limit(1);
      if (!known?.usedAt) return { kind: 'invalid' };
      const forgiven = await isWithinGrace(tx, known.sessionId, tokenHash, known.usedAt, now);
      return forgiven ? { kind: 'grace' } : { kind: 'reused', sessionId: known.sessionId };
    }
    const [row] = await tx
      .select({ user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.id, spent.sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
      .limit(1);
    if (!row) return { kind: 'invalid' };
    const expiresAt = new Date(now.getTime() + deps.refreshTokenTtlDays * 86_400_000);
    await tx.update(sessions).set({ expiresAt }).where(eq(sessions.id, spent.sessionId));
    const refreshToken = await issueRefreshToken(tx, spent.sessionId, expiresAt);
    return { kind: 'rotated', user: row.user, sessionId: spent.sessionId, refreshToken };
  });

  if (outcome.kind === 'reused') {
    const userId = await revokeSession(deps.db, outcome.sessionId);
    if (userId) deps.onSessionsEnded?.(userId);
    throw new AppError(401, REFRESH_TOKEN_REUSED, 'REFRESH_TOKEN_REUSED');
  }
  if (outcome.kind === 'invalid') throw new AppError(401, SESSION_EXPIRED, 'SESSION_EXPIRED');
  if (outcome.kind === 'grace') return { user: null, tokens: null };
  const accessToken = await deps.signer.sign({ sub: outcome.user.id, sid: outcome.sessionId });
  return { user: outcome.user, tokens: { accessToken, refreshToken: outcome.refreshToken } };
}

/**
 * Whether a spent token presented again is within the grace window: it was spent less than
 * REFRESH_REUSE_GRACE_MS ago by the session's latest rotation (the only other token of the session
 * used at or after it, or not used at all, is its one unused successor) and the session is live.
 * Otherwise the presentation is reuse.
 */
async function isWithinGrace(tx: Tx, sessionId: string, tokenHash: string, usedAt: Date, now: Date): Promise<boolean> {
  if (now.getTime() - usedAt.getTime() >= REFRESH_REUSE_GRACE_MS) return false;
  const newer = await tx
    .select({ usedAt: refreshTokens.usedAt })
    .from(refreshTokens)
    .where(and(
      eq(refreshTokens.sessionId, sessionId), ne(refreshTokens.tokenHash, tokenHash),
      or(isNull(refreshTokens.usedAt), gte(refreshTokens.usedAt, usedAt)),
    ))
    .limit(2);
  // Exactly the successor, still unused; a tie on used_at counts as a later rotation (reuse).
  if (newer.length !== 1 || newer[0]!.usedAt !== null) return false;
  const [live] = await tx
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .limit(1);
  return live !== undefined;
}

/** Whether a refresh token could be rotated right now (unused, unexpired, its session live). */
export async function isRefreshTokenLive(db: SessionDeps['db'], presented: string | undefined): Promise<boolean> {
  if (!presented) return false;
  const now = new Date();
  const [row] = await db
    .select({ id: refreshTokens.id })
    .from(refreshTokens)
    .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
    .where(and(
      eq(refreshTokens.tokenHash, hashToken(presented)), isNull(refreshTokens.usedAt), gt(refreshTokens.expiresAt, now),
      isNull(sessions.revokedAt), gt(sessions.expiresAt, now),
    ))
    .limit(1);
  return row !== undefined;
}
