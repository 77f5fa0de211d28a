import { USER_EXISTS, type SignUpBody } from '@shop/contracts';
import { users } from '../../db/schema.ts';
import { startSession } from '../../lib/auth.ts';
import { conflict } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { hashPassword } from '../../lib/passwords.ts';
import type { RequestMeta, SessionDeps, SessionTokens } from './auth-deps.ts';
import { findUserByEmail, isUniqueViolation, type UserRow } from './users.queries.ts';

const userExists = () => conflict(USER_EXISTS, { email: USER_EXISTS });

/** Creates a customer account and signs it in. */
export async function signUp(deps: SessionDeps, input: SignUpBody, meta: RequestMeta): Promise<{ user: UserRow; tokens: SessionTokens }> {
  if (await findUserByEmail(deps.db, input.email)) throw userExists();
  const passwordHash = await hashPassword(input.password);
  try {
    return await deps.db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({ id: newId(), name: input.name, email: input.email.toLowerCase(), passwordHash, isAdmin: false })
        .returning();
      if (!user) throw new Error('insert returned no row');
      const { accessToken, refreshToken } = await startSession(tx, deps, user.id, meta);
      return { user, tokens: { accessToken, refreshToken } };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw userExists(); // lost a race for the same e-mail
    throw err;
  }
}
