import { INVALID_CREDENTIALS, type SignInBody } from '@shop/contracts';
import { startSession } from '../../lib/auth.ts';
import { AppError } from '../../lib/errors.ts';
import { dummyPasswordHash, verifyPassword } from '../../lib/passwords.ts';
import type { RequestMeta, SessionDeps, SessionTokens } from './auth-deps.ts';
import { findUserByEmail, type UserRow } from './users.queries.ts';

/** Checks e-mail and password and starts a session. A missing account costs the same hash check. */
export async function signIn(deps: SessionDeps, input: SignInBody, meta: RequestMeta): Promise<{ user: UserRow; tokens: SessionTokens }> {
  const user = await findUserByEmail(deps.db, input.email);
  const isValid = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password);
  if (!user || !isValid) throw new AppError(401, INVALID_CREDENTIALS, 'INVALID_CREDENTIALS');
  const { accessToken, refreshToken } = await startSession(deps.db, deps, user.id, meta);
  return { user, tokens: { accessToken, refreshToken } };
}
