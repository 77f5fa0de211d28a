import type { ChatMessage, ChatSummary } from '@shop/contracts';
import type { chatConversations, chatMessages } from '../../db/schema.ts';

export type ChatMessageRow = typeof chatMessages.$inferSelect;
export type ChatConversationRow = typeof chatConversations.$inferSelect;

/** What leaves the server for a message, over REST and the websocket alike. */
export function presentMessage(m: ChatMessageRow): ChatMessage {
  return {
    id: m.id,
    content: m.content,
    sender: m.sender,
    timestamp: m.createdAt.toISOString(),
    senderId: m.senderId,
    userId: m.userId,
    senderName: m.senderName,
    senderEmail: m.senderEmail,
    recipientId: m.recipientId,
    clientId: m.clientId,
    ...(m.fallback ? { fallback: true } : {}),
  };
}

export function presentSummary(c: ChatConversationRow, messages: ChatMessageRow[], messageCount = messages.length): ChatSummary {
  return {
    _id: c.id,
    userId: c.userId,
    userName: c.userName,
    userEmail: c.userEmail,
    isGuest: c.isGuest,
    lastActivity: c.lastActivity.toISOString(),
    messageCount,
    messages: messages.map(presentMessage),
    wantsPersonAt: c.wantsPersonAt ? c.wantsPersonAt.toISOString() : null,
  };
}
