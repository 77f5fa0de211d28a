import {
  CURRENT_PASSWORD_INCORRECT, CURRENT_PASSWORD_REQUIRED, EMAIL_CHANGE_TOKEN_TTL_HOURS, EMAIL_IN_USE, type UpdateProfileBody,
} from '@shop/contracts';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { emailChanges, passwordResets, users } from '../../db/schema.ts';
import { revokeUserSessions, type AuthUser } from '../../lib/auth.ts';
import { AppError, badRequest, conflict, unauthorized } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { hashToken, newOpaqueToken } from '../../lib/tokens.ts';
import { confirmEmailChangeMail, emailChangeNoticeMail } from './account-mails.ts';
import { isEmailTakenByOther, type UserRow } from './users.queries.ts';

const emailInUse = () => conflict(EMAIL_IN_USE, { email: EMAIL_IN_USE });

export const currentPasswordRequired = () =>
  badRequest(CURRENT_PASSWORD_REQUIRED, { currentPassword: CURRENT_PASSWORD_REQUIRED }, 'CURRENT_PASSWORD_REQUIRED');
export const currentPasswordIncorrect = () =>
  new AppError(401, CURRENT_PASSWORD_INCORRECT, 'CURRENT_PASSWORD_INCORRECT', { currentPassword: CURRENT_PASSWORD_INCORRECT });

/** Whether the update changes the e-mail or the password, the changes that need the current password. */
export function changesCredentials(current: { email: string }, input: UpdateProfileBody): boolean {
  return !!input.password || changesEmail(current, input);
}

/** Whether the update asks for another e-mail address (compared case-insensitively). */
export function changesEmail(current: { email: string }, input: UpdateProfileBody): boolean {
  return input.email.toLowerCase() !== current.email.toLowerCase();
}

/** Cancels the account's e-mail changes still waiting for confirmation (a newer one, a password reset). */
export async function cancelPendingEmailChanges(tx: Executor, userId: string, now: Date): Promise<void> {
  await tx.update(emailChanges).set({ cancelledAt: now })
    .where(and(eq(emailChanges.userId, userId), isNull(emailChanges.confirmedAt), isNull(emailChanges.cancelledAt)));
}

export interface ProfileDeps {
  db: Db;
  mailer: Mailer;
  /** The origin of the links in the mails (config.siteUrl). */
  siteUrl: string;
}

/**
 * Updates the signed-in user's name and (when given) password, and asks for a new e-mail address.
 * Changing the e-mail or the password needs the current password (400 when missing, 401 when
 * wrong; nothing changes), checked before anything else about the new values. A new password ends
 * the user's other sessions and voids outstanding reset links.
 *
 * A new e-mail is not set here: the new address gets a single-use confirmation link (valid
 * EMAIL_CHANGE_TOKEN_TTL_HOURS, stored hashed) and the account keeps, and signs in with, its current
 * address until the link is opened (confirm-email-change.ts). The current address is told at once,
 * with a password-reset link as long-lived as the change's: securing the account ends every session
 * and cancels the change. A newer request cancels the one before. Answers the user as saved and
 * the address the confirmation went to.
 */
export async function updateProfile(deps: ProfileDeps, current: AuthUser, input: UpdateProfileBody): Promise<{ user: UserRow; pendingEmail: string | null }> {
  const { db } = deps;
  const email = input.email.toLowerCase();
  if (changesCredentials(current, input)) {
    if (!input.currentPassword) throw currentPasswordRequired();
    const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, current.id)).limit(1);
    if (!row) throw unauthorized();
    if (!(await verifyPassword(row.passwordHash, input.currentPassword))) throw currentPasswordIncorrect();
  }
  const newEmail = changesEmail(current, input) ? email : null;
  if (newEmail && (await isEmailTakenByOther(db, newEmail, current.id))) throw emailInUse();
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  const links = newEmail ? { confirm: newOpaqueToken(), secure: newOpaqueToken() } : null;
  const expiresAt = new Date(Date.now() + EMAIL_CHANGE_TOKEN_TTL_HOURS * 3_600_000);
  const user = await db.transaction(async (tx) => {
    const now = new Date();
    const [updated] = await tx
      .update(users)
      .set({ name: input.name, updatedAt: now, ...(passwordHash ? { passwordHash } : {}) })
      .where(eq(users.id, current.id))
      .returning();
    if (!updated) throw unauthorized();
    if (passwordHash) {
      await revokeUserSessions(tx, current.id, current.sessionId);
      await tx.update(passwordResets).set({ usedAt: now }).where(and(eq(passwordResets.userId, current.id), isNull(passwordResets.usedAt)));
    }
    if (newEmail && links) {
      await cancelPendingEmailChanges(tx, current.id, now);
      await tx.insert(emailChanges).values({ id: newId(), userId: current.id, newEmail, tokenHash: hashToken(links.confirm), expiresAt });
      await tx.insert(passwordResets).values({ id: newId(), userId: current.id, tokenHash: hashToken(links.secure), expiresAt });
    }
    return updated;
  });
  if (newEmail && links) {
    // Recorded once the change is stored (mail to the new address first: the one the user waits for).
    const link = (page: string, token: string) => `${deps.siteUrl}/${page}?token=${encodeURIComponent(token)}`;
    await deps.mailer.send({ ...confirmEmailChangeMail(newEmail, user.name, link('confirm-email', links.confirm)), linkExpiresAt: expiresAt });
    await deps.mailer.send({ ...emailChangeNoticeMail(user.email, user.name, newEmail, link('reset-password', links.secure)), linkExpiresAt: expiresAt });
  }
  return { user, pendingEmail: newEmail };
}
