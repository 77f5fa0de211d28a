import { REFRESH_TOKEN_MISSING, REFRESH_TOKEN_REUSED, SESSION_EXPIRED } from '@shop/contracts';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { refreshTokens, sessions, users } from '../../db/schema.ts';
import { issueRefreshToken, revokeSession } from '../../lib/auth.ts';
import { AppError } from '../../lib/errors.ts';
import { hashToken } from '../../lib/tokens.ts';
import type { SessionDeps, SessionTokens } from './auth-deps.ts';
import type { UserRow } from './users.queries.ts';

type Outcome =
  | { kind: 'rotated'; user: UserRow; sessionId: string; refreshToken: string }
  | { kind: 'reused'; sessionId: string }
  | { kind: 'invalid' };

/**
 * Rotates a refresh token: the presented one is marked used and a new one is issued for the same
 * session, whose expiry slides forward. Presenting a token that was already used means it was copied:
 * the whole session is revoked, so neither party can go on with it.
 */
export async function refreshSession(deps: SessionDeps, presented: string | undefined): Promise<{ user: UserRow; tokens: SessionTokens }> {
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
      return known?.usedAt ? { kind: 'reused', sessionId: known.sessionId } : { kind: 'invalid' };
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
  const accessToken = await deps.signer.sign({ sub: outcome.user.id, sid: outcome.sessionId });
  return { user: outcome.user, tokens: { accessToken, refreshToken: outcome.refreshToken } };
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
