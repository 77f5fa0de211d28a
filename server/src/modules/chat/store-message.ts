import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { chatConversations, chatMessages, type ChatSender } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import type { ChatMessageRow } from './chat.presenter.ts';

export interface NewChatMessage {
  /** The customer or guest whose conversation it is. */
  conversationOwner: { id: string; name: string; email: string; isGuest: boolean };
  sender: ChatSender;
  senderId: string;
  senderName: string;
  senderEmail: string;
  recipientId?: string | null;
  content: string;
  clientId?: string | null;
}

/**
 * Stores a message (creating the owner's conversation on first contact) before anything is
 * acknowledged or delivered. A message whose (sender, clientId) is already stored is a resend:
 * the stored one is returned with `isDuplicate`, and nothing is written.
 */
export async function storeMessage(db: Executor, m: NewChatMessage): Promise<{ message: ChatMessageRow; isDuplicate: boolean }> {
  const owner = m.conversationOwner;
  const now = new Date();
  const [conversation] = await db.insert(chatConversations).values({
    id: newId(), userId: owner.id, userName: owner.name, userEmail: owner.email, isGuest: owner.isGuest, lastActivity: now,
  }).onConflictDoUpdate({
    target: chatConversations.userId,
    // Only the customer's own messages refresh the name and e-mail shown in the history.
    set: m.sender === 'user'
      ? { lastActivity: sql`greatest(${chatConversations.lastActivity}, excluded.last_activity)`, userName: owner.name, userEmail: owner.email }
      : { lastActivity: sql`greatest(${chatConversations.lastActivity}, excluded.last_activity)` },
  }).returning({ id: chatConversations.id });
  const inserted = await db.insert(chatMessages).values({
    id: newId(),
    conversationId: conversation!.id,
    userId: owner.id,
    sender: m.sender,
    senderId: m.senderId,
    senderName: m.senderName,
    senderEmail: m.senderEmail,
    recipientId: m.recipientId ?? null,
    content: m.content,
    clientId: m.clientId ?? null,
    createdAt: now,
  }).onConflictDoNothing().returning();
  if (inserted[0]) return { message: inserted[0], isDuplicate: false };
  // Lost a race with the same resend on another connection or instance.
  const [existing] = await db.select().from(chatMessages)
    .where(and(eq(chatMessages.senderId, m.senderId), eq(chatMessages.clientId, m.clientId ?? ''))).limit(1);
  if (!existing) throw new Error('chat message neither inserted nor found');
  return { message: existing, isDuplicate: true };
}
