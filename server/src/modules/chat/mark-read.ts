import { and, count, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { chatConversations, chatMessages } from '../../db/schema.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { notAdminOwner, unreadMessagesOf } from './read-messages.ts';

export const MESSAGE_NOT_IN_CHAT = 'That message is not part of this chat';

/**
 * Moves a conversation's read mark forward to a message of it, never back: an older mark sent late
 * (a second tab, a slow request) changes nothing. One conditional UPDATE, so two administrators
 * marking at once end at the newer of the two.
 */
export async function advanceReadMark(db: Executor, userId: string, message: { id: string; createdAt: Date }): Promise<void> {
  await db.update(chatConversations)
    .set({ adminReadAt: message.createdAt, adminReadId: message.id })
    .where(and(
      eq(chatConversations.userId, userId),
      sql`(${chatConversations.adminReadAt} IS NULL OR (${chatConversations.adminReadAt}, ${chatConversations.adminReadId}) < (${message.createdAt}, ${message.id}))`,
    ));
}

/**
 * POST chat/chat/{id}/read: an administrator has seen the conversation up to `messageId` (the
 * newest message on their screen, so a message that arrived meanwhile stays unread). Returns how
 * many of the customer's messages are still unread. 'Chat not found' for no conversation (or an
 * administrator's own); 400 for a message of another conversation.
 */
export async function markChatRead(db: Executor, conversationId: string, messageId: string): Promise<{ unread: number }> {
  const [conversation] = await db.select({ userId: chatConversations.userId }).from(chatConversations)
    .where(and(eq(chatConversations.id, conversationId), notAdminOwner(db))).limit(1);
  if (!conversation) throw notFound('Chat not found');
  const [message] = await db.select({ id: chatMessages.id, createdAt: chatMessages.createdAt }).from(chatMessages)
    .where(and(eq(chatMessages.id, messageId), eq(chatMessages.userId, conversation.userId))).limit(1);
  if (!message) throw badRequest(MESSAGE_NOT_IN_CHAT, { messageId: MESSAGE_NOT_IN_CHAT });
  await advanceReadMark(db, conversation.userId, message);
  const [left] = await db.select({ n: count() }).from(chatMessages)
    .innerJoin(chatConversations, eq(chatConversations.userId, chatMessages.userId))
    .where(and(eq(chatConversations.id, conversationId), unreadMessagesOf(chatConversations)));
  return { unread: Number(left?.n ?? 0) };
}
