import type { User } from '@shop/contracts';

/** What leaves the server about a user: never the password hash, whatever the row carries. */
export function presentUser(user: { id: string; name: string; email: string; isAdmin: boolean }): User {
  return { _id: user.id, name: user.name, email: user.email, isAdmin: user.isAdmin };
}
