import { INVALID_SIGNUP_TOKEN, USER_EXISTS } from '@shop/contracts';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { signupRequests, users } from '../../db/schema.ts';
import { startSession } from '../../lib/auth.ts';
import { badRequest, conflict } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { hashToken } from '../../lib/tokens.ts';
import type { RequestMeta, SessionDeps, SessionTokens } from './auth-deps.ts';
import { isUniqueViolation, type UserRow } from './users.queries.ts';

const invalidToken = () => badRequest(INVALID_SIGNUP_TOKEN, undefined, 'INVALID_SIGNUP_TOKEN');
const userExists = () => conflict(USER_EXISTS, { email: USER_EXISTS });

/**
 * Creates the customer account of a confirmed sign-up and signs it in. The token is spent by one
 * conditional update, so two uses cannot both succeed; the other pending sign-ups of the address
 * are voided. An address that got an account in the meantime is refused with 409.
 */
export async function confirmSignUp(deps: SessionDeps, token: string, meta: RequestMeta): Promise<{ user: UserRow; tokens: SessionTokens }> {
  const tokenHash = hashToken(token);
  try {
    return await deps.db.transaction(async (tx) => {
      const now = new Date();
      const [request] = await tx
        .update(signupRequests)
        .set({ usedAt: now })
        .where(and(eq(signupRequests.tokenHash, tokenHash), isNull(signupRequests.usedAt), gt(signupRequests.expiresAt, now)))
        .returning();
      if (!request) throw invalidToken();
      const [user] = await tx
        .insert(users)
        .values({ id: newId(), name: request.name, email: request.email, passwordHash: request.passwordHash, isAdmin: false })
        .onConflictDoNothing()
        .returning();
      if (!user) throw userExists();
      await tx
        .update(signupRequests)
        .set({ usedAt: now })
        .where(and(sql`lower(${signupRequests.email}) = ${request.email.toLowerCase()}`, isNull(signupRequests.usedAt)));
      const { accessToken, refreshToken } = await startSession(tx, deps, user.id, meta);
      return { user, tokens: { accessToken, refreshToken } };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw userExists(); // lost a race for the same e-mail
    throw err;
  }
}
