import { INVALID_RESET_TOKEN, type ResetPasswordBody } from '@shop/contracts';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { passwordResets, users } from '../../db/schema.ts';
import { revokeUserSessions } from '../../lib/auth.ts';
import { badRequest } from '../../lib/errors.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { hashToken } from '../../lib/tokens.ts';
import { cancelPendingEmailChanges } from './update-profile.ts';

const invalidToken = () => badRequest(INVALID_RESET_TOKEN, undefined, 'INVALID_RESET_TOKEN');

/**
 * Sets a new password from a reset link. The token is spent, other links are voided, a pending
 * e-mail change is cancelled and every session ends. Answers the account's e-mail (the sign-in guard clears its failure count).
 */
export async function resetPassword(db: Db, input: ResetPasswordBody): Promise<{ email: string; userId: string }> {
  const tokenHash = hashToken(input.token);
  const isLive = and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, new Date()));
  // Cheap check first, so unknown tokens cost no password hashing.
  const [candidate] = await db.select({ id: passwordResets.id }).from(passwordResets).where(isLive).limit(1);
  if (!candidate) throw invalidToken();
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const now = new Date();
    // Spending the token is one conditional update, so two concurrent uses cannot both succeed.
    const [spent] = await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)))
      .returning({ userId: passwordResets.userId });
    if (!spent) throw invalidToken();
    const [user] = await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, spent.userId)).returning({ email: users.email });
    await tx.update(passwordResets).set({ usedAt: now }).where(and(eq(passwordResets.userId, spent.userId), isNull(passwordResets.usedAt)));
    // The owner of the mailbox secured the account: a change of its e-mail asked meanwhile (perhaps
    // by whoever had the session or the password) stops here.
    await cancelPendingEmailChanges(tx, spent.userId, now);
    await revokeUserSessions(tx, spent.userId);
    return { email: user?.email ?? '', userId: spent.userId };
  });
}
