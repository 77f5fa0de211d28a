import { USER_MESSAGES, type AdminCreateUserBody, type AdminUser } from '@shop/contracts';
import type { Db } from '../../db/client.ts';
import { passwordResets, users } from '../../db/schema.ts';
import { conflict } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { hashToken, newOpaqueToken } from '../../lib/tokens.ts';
import { escapeHtml } from './account-mails.ts';
import { getAdminUser } from './list-users.ts';
import { findUserByEmail, isUniqueViolation } from './users.queries.ts';

export const SET_PASSWORD_SUBJECT = 'Your account is ready: choose a password';
/** How long the set-password link of an account created by an administrator works. */
export const SET_PASSWORD_TTL_HOURS = 72;
/** Not an argon2 hash: nothing verifies against it until the owner sets a password. */
export const NO_PASSWORD_HASH = '!no-password-set';

/**
 * Creates an account for someone (admin). The administrator never types or sees a password: the
 * account gets a single-use set-password link by e-mail (recorded in the outbox).
 */
export async function createUserAsAdmin(deps: { db: Db; mailer: Mailer }, body: AdminCreateUserBody, baseUrl: string): Promise<AdminUser> {
  if (await findUserByEmail(deps.db, body.email)) throw conflict(USER_MESSAGES.emailInUse, { email: USER_MESSAGES.emailInUse });
  const id = newId();
  const token = newOpaqueToken();
  const expiresAt = new Date(Date.now() + SET_PASSWORD_TTL_HOURS * 3_600_000);
  try {
    await deps.db.transaction(async (tx) => {
      await tx.insert(users).values({ id, name: body.name, email: body.email, isAdmin: body.isAdmin, passwordHash: NO_PASSWORD_HASH });
      await tx.insert(passwordResets).values({
        id: newId(), userId: id, tokenHash: hashToken(token), expiresAt,
      });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(USER_MESSAGES.emailInUse, { email: USER_MESSAGES.emailInUse });
    throw err;
  }
  const link = `${baseUrl}/reset-password?token=${encodeURIComponent(token)}`;
  await deps.mailer.send({
    to: body.email,
    subject: SET_PASSWORD_SUBJECT,
    linkExpiresAt: expiresAt,
    text: [
      `Hello ${body.name},`,
      '',
      'An account was created for you at our shop. Open this link to choose your password:',
      link,
      '',
      `The link works once and expires in ${SET_PASSWORD_TTL_HOURS} hours. Afterwards, use "Forgot password" on the sign-in page.`,
    ].join('\n'),
    html: [
      `<p>Hello ${escapeHtml(body.name)},</p>`,
      '<p>An account was created for you at our shop.</p>',
      `<p><a href="${escapeHtml(link)}">Choose your password</a></p>`,
      `<p>The link works once and expires in ${SET_PASSWORD_TTL_HOURS} hours. Afterwards, use "Forgot password" on the sign-in page.</p>`,
    ].join('\n'),
  });
  return getAdminUser(deps.db, id);
}
