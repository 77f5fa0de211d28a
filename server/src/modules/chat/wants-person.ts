import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { chatConversations } from '../../db/schema.ts';

/**
 * Marks a conversation for an administrator: its person asked the assistant for a person or was
 * upset (issue 36). The first request's time is kept until an administrator answers.
 */
export async function markConversationWantsPerson(db: Executor, userId: string, at = new Date()): Promise<void> {
  await db.update(chatConversations).set({ wantsPersonAt: at })
    .where(and(eq(chatConversations.userId, userId), isNull(chatConversations.wantsPersonAt)));
}

/** An administrator answered in the conversation: the mark is cleared. */
export async function clearConversationWantsPerson(db: Executor, userId: string): Promise<void> {
  await db.update(chatConversations).set({ wantsPersonAt: null })
    .where(and(eq(chatConversations.userId, userId), isNotNull(chatConversations.wantsPersonAt)));
}
