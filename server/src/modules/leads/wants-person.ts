import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { leads } from '../../db/schema.ts';

/**
 * Marks a person's lead "Wants a person" (they asked the chat assistant for a person, or were
 * upset), keeping the time of the first request until it is answered. Nothing happens without a
 * lead (the chat records one with each message first).
 */
export async function markLeadWantsPerson(db: Executor, userId: string, at = new Date()): Promise<void> {
  await db.update(leads).set({ wantsPersonAt: at }).where(and(eq(leads.userId, userId), isNull(leads.wantsPersonAt)));
}

/** Clears the mark once an administrator answered the person in the chat. */
export async function clearLeadWantsPerson(db: Executor, userId: string): Promise<void> {
  await db.update(leads).set({ wantsPersonAt: null }).where(and(eq(leads.userId, userId), isNotNull(leads.wantsPersonAt)));
}
