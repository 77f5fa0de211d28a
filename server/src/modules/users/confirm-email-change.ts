import {
  EMAIL_CHANGE_CANCELLED, EMAIL_CHANGE_EXPIRED, EMAIL_CHANGE_INVALID, EMAIL_CHANGE_TAKEN, EMAIL_CHANGE_USED,
} from '@shop/contracts';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { emailChanges, passwordResets, users } from '../../db/schema.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { hashToken } from '../../lib/tokens.ts';
import { cancelPendingEmailChanges } from './update-profile.ts';
import { isEmailTakenByOther, isUniqueViolation } from './users.queries.ts';

const taken = () => new AppError(409, EMAIL_CHANGE_TAKEN, 'EMAIL_CHANGE_TAKEN');

/** Why a token that spends nothing was refused: unknown, already used, replaced or voided, or expired. */
async function refusalFor(db: Executor, tokenHash: string, now: Date): Promise<Error> {
  const [row] = await db.select().from(emailChanges).where(eq(emailChanges.tokenHash, tokenHash)).limit(1);
  if (!row) return badRequest(EMAIL_CHANGE_INVALID, undefined, 'EMAIL_CHANGE_INVALID');
  if (row.confirmedAt) return badRequest(EMAIL_CHANGE_USED, undefined, 'EMAIL_CHANGE_USED');
  if (row.cancelledAt) return badRequest(EMAIL_CHANGE_CANCELLED, undefined, 'EMAIL_CHANGE_CANCELLED');
  if (row.expiresAt <= now) return badRequest(EMAIL_CHANGE_EXPIRED, undefined, 'EMAIL_CHANGE_EXPIRED');
  return badRequest(EMAIL_CHANGE_INVALID, undefined, 'EMAIL_CHANGE_INVALID');
}

/**
 * Makes the confirmed new address the account's e-mail (the link mailed by updateProfile). The token
 * is spent by one conditional update, so two uses cannot both succeed. An address another account
 * took meanwhile is refused with 409 and nothing changes (the link keeps working until it expires,
 * should that account let the address go). Outstanding reset links (they went to the old address)
 * are voided, as is the old address's "secure my account" link. Answers the account and its e-mail.
 */
export async function confirmEmailChange(db: Db, token: string): Promise<{ userId: string; email: string }> {
  const tokenHash = hashToken(token);
  const now = new Date();
  try {
    return await db.transaction(async (tx) => {
      const [change] = await tx
        .update(emailChanges)
        .set({ confirmedAt: now })
        .where(and(eq(emailChanges.tokenHash, tokenHash), isNull(emailChanges.confirmedAt), isNull(emailChanges.cancelledAt), gt(emailChanges.expiresAt, now)))
        .returning({ userId: emailChanges.userId, newEmail: emailChanges.newEmail });
      if (!change) throw await refusalFor(tx, tokenHash, now);
      if (await isEmailTakenByOther(tx, change.newEmail, change.userId)) throw taken();
      const [user] = await tx.update(users).set({ email: change.newEmail, updatedAt: now }).where(eq(users.id, change.userId)).returning({ id: users.id });
      if (!user) throw badRequest(EMAIL_CHANGE_INVALID, undefined, 'EMAIL_CHANGE_INVALID');
      await tx.update(passwordResets).set({ usedAt: now }).where(and(eq(passwordResets.userId, change.userId), isNull(passwordResets.usedAt)));
      await cancelPendingEmailChanges(tx, change.userId, now);
      return { userId: change.userId, email: change.newEmail };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw taken(); // lost a race for the same address
    throw err;
  }
}
