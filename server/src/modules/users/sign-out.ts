import { eq } from 'drizzle-orm';
import { refreshTokens } from '../../db/schema.ts';
import { revokeSession } from '../../lib/auth.ts';
import { hashToken } from '../../lib/tokens.ts';
import type { SessionDeps } from './auth-deps.ts';

/** Revokes the session named by the refresh cookie, or else by the access cookie. Unknown tokens are ignored. */
export async function signOut(deps: Pick<SessionDeps, 'db' | 'signer' | 'onSessionsEnded'>, cookies: { refreshToken?: string | undefined; accessToken?: string | undefined }): Promise<void> {
  let sessionId: string | undefined;
  if (cookies.refreshToken) {
    const [row] = await deps.db
      .select({ sessionId: refreshTokens.sessionId })
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, hashToken(cookies.refreshToken)))
      .limit(1);
    sessionId = row?.sessionId;
  }
  if (!sessionId && cookies.accessToken) {
    sessionId = (await deps.signer.verify(cookies.accessToken))?.sid;
  }
  if (!sessionId) return;
  const userId = await revokeSession(deps.db, sessionId);
  if (userId) deps.onSessionsEnded?.(userId);
}
