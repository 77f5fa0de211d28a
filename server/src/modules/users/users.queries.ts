import { and, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';

export type UserRow = typeof users.$inferSelect;

/** E-mail addresses are unique case-insensitively (index on lower(email)). */
const emailMatches = (email: string) => sql`lower(${users.email}) = ${email.toLowerCase()}`;

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(emailMatches(email)).limit(1);
  return row;
}

export async function isEmailTakenByOther(db: Executor, email: string, userId: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(and(emailMatches(email), ne(users.id, userId))).limit(1);
  return row !== undefined;
}

/** A unique-index violation (two requests racing for one e-mail), from node-postgres or PGlite, raw or wrapped by Drizzle. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth += 1) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
