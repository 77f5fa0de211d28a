import { CURRENT_PASSWORD_INCORRECT, CURRENT_PASSWORD_REQUIRED, EMAIL_IN_USE, type UpdateProfileBody } from '@shop/contracts';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { passwordResets, users } from '../../db/schema.ts';
import { revokeUserSessions, type AuthUser } from '../../lib/auth.ts';
import { AppError, badRequest, conflict, unauthorized } from '../../lib/errors.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { isEmailTakenByOther, isUniqueViolation, type UserRow } from './users.queries.ts';

const emailInUse = () => conflict(EMAIL_IN_USE, { email: EMAIL_IN_USE });

export const currentPasswordRequired = () =>
  badRequest(CURRENT_PASSWORD_REQUIRED, { currentPassword: CURRENT_PASSWORD_REQUIRED }, 'CURRENT_PASSWORD_REQUIRED');
export const currentPasswordIncorrect = () =>
  new AppError(401, CURRENT_PASSWORD_INCORRECT, 'CURRENT_PASSWORD_INCORRECT', { currentPassword: CURRENT_PASSWORD_INCORRECT });

/** Whether the update changes the e-mail or the password, the changes that need the current password. */
export function changesCredentials(current: { email: string }, input: UpdateProfileBody): boolean {
  return !!input.password || input.email.toLowerCase() !== current.email.toLowerCase();
}

/**
 * Updates the signed-in user's name, e-mail and (when given) password. Changing the e-mail or the
 * password needs the current password (400 when missing, 401 when wrong; nothing changes), checked
 * before anything else about the new values. A new password ends the user's other sessions; a new
 * password or e-mail voids outstanding reset links.
 */
export async function updateProfile(db: Db, current: AuthUser, input: UpdateProfileBody): Promise<UserRow> {
  const email = input.email.toLowerCase();
  if (changesCredentials(current, input)) {
    if (!input.currentPassword) throw currentPasswordRequired();
    const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, current.id)).limit(1);
    if (!row) throw unauthorized();
    if (!(await verifyPassword(row.passwordHash, input.currentPassword))) throw currentPasswordIncorrect();
  }
  if (await isEmailTakenByOther(db, email, current.id)) throw emailInUse();
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  try {
    return await db.transaction(async (tx) => {
      const [before] = await tx.select({ email: users.email }).from(users).where(eq(users.id, current.id)).limit(1);
      if (!before) throw unauthorized();
      const [user] = await tx
        .update(users)
        .set({ name: input.name, email, updatedAt: new Date(), ...(passwordHash ? { passwordHash } : {}) })
        .where(eq(users.id, current.id))
        .returning();
      if (!user) throw unauthorized();
      if (passwordHash) await revokeUserSessions(tx, current.id, current.sessionId);
      if (passwordHash || before.email !== email) {
        await tx.update(passwordResets).set({ usedAt: new Date() }).where(and(eq(passwordResets.userId, current.id), isNull(passwordResets.usedAt)));
      }
      return user;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw emailInUse();
    throw err;
  }
}
