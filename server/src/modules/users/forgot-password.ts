import { RESET_TOKEN_TTL_MINUTES } from '@shop/contracts';
import type { Db } from '../../db/client.ts';
import { passwordResets } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { hashToken, newOpaqueToken } from '../../lib/tokens.ts';
import { escapeHtml } from './account-mails.ts';
import { findUserByEmail } from './users.queries.ts';

export const RESET_MAIL_SUBJECT = 'Reset your password';

/**
 * When an account exists for the e-mail, stores a hashed single-use reset token valid for an hour and
 * mails a link to `${baseUrl}/reset-password?token=...`. Does nothing otherwise. Runs after the
 * answer has gone (the route answers the same, equally fast, either way).
 */
export async function requestPasswordReset(deps: { db: Db; mailer: Mailer }, email: string, baseUrl: string): Promise<void> {
  const user = await findUserByEmail(deps.db, email);
  if (!user) return;
  const token = newOpaqueToken();
  const expiresAt = new Date(Date.now() + RESET_TOKEN_TTL_MINUTES * 60_000);
  await deps.db.insert(passwordResets).values({ id: newId(), userId: user.id, tokenHash: hashToken(token), expiresAt });
  const link = `${baseUrl}/reset-password?token=${encodeURIComponent(token)}`;
  await deps.mailer.send({
    to: user.email,
    subject: RESET_MAIL_SUBJECT,
    linkExpiresAt: expiresAt,
    text: [
      `Hello ${user.name},`,
      '',
      'Someone (hopefully you) asked to reset the password of your account. Open this link to choose a new one:',
      link,
      '',
      `The link works once and expires in ${RESET_TOKEN_TTL_MINUTES} minutes. If you did not ask for it, ignore this e-mail.`,
    ].join('\n'),
    html: [
      `<p>Hello ${escapeHtml(user.name)},</p>`,
      '<p>Someone (hopefully you) asked to reset the password of your account.</p>',
      `<p><a href="${escapeHtml(link)}">Choose a new password</a></p>`,
      `<p>The link works once and expires in ${RESET_TOKEN_TTL_MINUTES} minutes. If you did not ask for it, ignore this e-mail.</p>`,
    ].join('\n'),
  });
}
