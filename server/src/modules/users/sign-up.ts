import { SIGNUP_TOKEN_TTL_HOURS, type SignUpBody } from '@shop/contracts';
import type { Db } from '../../db/client.ts';
import { signupRequests } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { hashToken, newOpaqueToken } from '../../lib/tokens.ts';
import { alreadyRegisteredMail, confirmSignUpMail } from './account-mails.ts';
import { findUserByEmail } from './users.queries.ts';

/**
 * The work behind POST users/signup, run after the answer has gone (the caller cannot tell what
 * happened): an address with an account gets a "you already have an account" mail; a new address
 * gets a single-use link, valid SIGNUP_TOKEN_TTL_HOURS, whose token is stored hashed with the
 * request (password already hashed). The account exists only once the link is used.
 */
export async function requestSignUp(deps: { db: Db; mailer: Mailer }, input: SignUpBody, baseUrl: string): Promise<void> {
  const email = input.email.toLowerCase();
  const existing = await findUserByEmail(deps.db, email);
  if (existing) {
    await deps.mailer.send(alreadyRegisteredMail(existing.email, existing.name, baseUrl));
    return;
  }
  const passwordHash = await hashPassword(input.password);
  const token = newOpaqueToken();
  const expiresAt = new Date(Date.now() + SIGNUP_TOKEN_TTL_HOURS * 3_600_000);
  await deps.db.insert(signupRequests).values({
    id: newId(),
    name: input.name,
    email,
    passwordHash,
    tokenHash: hashToken(token),
    expiresAt,
  });
  const redirect = input.redirect && input.redirect !== '/' ? `&redirect=${encodeURIComponent(input.redirect)}` : '';
  await deps.mailer.send({ ...confirmSignUpMail(email, input.name, `${baseUrl}/confirm-signup?token=${encodeURIComponent(token)}${redirect}`), linkExpiresAt: expiresAt });
}
