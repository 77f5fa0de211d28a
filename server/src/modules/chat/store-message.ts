import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { chatConversations, chatMessages, type ChatSender } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import type { ChatMessageRow } from './chat.presenter.ts';

/** How stale a conversation's lastActivity may get while messages keep coming (history ordering only). */
export const ACTIVITY_REFRESH_MS = 5000;

const caches = new WeakMap<object, Map<string, { id: string; touchedAt: number; name: string }>>();
function conversationCache(db: object) {
  let cache = caches.get(db);
  if (!cache) { cache = new Map(); caches.set(db, cache); }
  return cache;
}

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
  const known = conversationCache(db).get(owner.id);
  let conversationId: string;
  // The conversation row (its lastActivity, name, e-mail) is refreshed at most every
  // ACTIVITY_REFRESH_MS per conversation: at hundreds of messages a second, one write per message
  // instead of two, and no queue on the conversation's row lock.
  if (known && now.getTime() - known.touchedAt < ACTIVITY_REFRESH_MS && !(m.sender === 'user' && known.name !== `${owner.name}\u0000${owner.email}`)) {
    conversationId = known.id;
  } else {
    const [conversation] = await db.insert(chatConversations).values({
      id: newId(), userId: owner.id, userName: owner.name, userEmail: owner.email, isGuest: owner.isGuest, lastActivity: now,
    }).onConflictDoUpdate({
      target: chatConversations.userId,
      // Only the customer's own messages refresh the name and e-mail shown in the history.
      set: m.sender === 'user'
        ? { lastActivity: sql`greatest(${chatConversations.lastActivity}, excluded.last_activity)`, userName: owner.name, userEmail: owner.email }
        : { lastActivity: sql`greatest(${chatConversations.lastActivity}, excluded.last_activity)` },
    }).returning({ id: chatConversations.id });
    conversationId = conversation!.id;
    const cache = conversationCache(db);
    if (cache.size > 100_000) cache.clear();
    cache.set(owner.id, { id: conversationId, touchedAt: now.getTime(), name: `${owner.name}\u0000${owner.email}` });
  }
  const inserted = await db.insert(chatMessages).values({
    id: newId(),
    conversationId,
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
