import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';


import { createdAtColumn as createdAt, idColumn as id } from './users.ts';

export type ChatSender = 'user' | 'admin' | 'ai';

/** One conversation per customer or guest (user_id: a user id or a guest id containing 'guest'). */
export const chatConversations = pgTable(
  'chat_conversations',
  {
    id: id().primaryKey(),
    userId: text('user_id').notNull(),
    userName: text('user_name').notNull(),
    userEmail: text('user_email').notNull(),
    isGuest: boolean('is_guest').notNull().default(false),
    lastActivity: timestamp('last_activity', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    /** When the person asked the assistant for a person, or was upset; cleared by an administrator's reply (migration 0090). */
    wantsPersonAt: timestamp('wants_person_at', { withTimezone: true }),
    /**
     * How far administrators have read it (migration 0095): the newest message, by (created_at, id),
     * seen on the back office's chat page or answered; the customer's messages after it are unread.
     */
    adminReadAt: timestamp('admin_read_at', { withTimezone: true }),
    adminReadId: id('admin_read_id'),
  },
  (t) => [
    uniqueIndex('chat_conversations_user_id_key').on(t.userId),
    index('chat_conversations_last_activity_idx').on(t.lastActivity.desc(), t.id.desc()),
  ],
);

/** A stored chat message; (sender_id, client_id) makes a client's resend idempotent. */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: id().primaryKey(),
    conversationId: id('conversation_id').notNull().references(() => chatConversations.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    sender: text('sender').$type<ChatSender>().notNull(),
    senderId: text('sender_id').notNull(),
    senderName: text('sender_name').notNull(),
    senderEmail: text('sender_email').notNull(),
    recipientId: text('recipient_id'),
    content: text('content').notNull(),
    clientId: text('client_id'),
    createdAt: createdAt(),
    /** An assistant's answer given because no administrator replied within CHAT_ADMIN_REPLY_SECONDS. */
    fallback: boolean('fallback').notNull().default(false),
  },
  (t) => [
    check('chat_messages_sender_check', sql`${t.sender} IN ('user', 'admin', 'ai')`),
    uniqueIndex('chat_messages_sender_client_key').on(t.senderId, t.clientId),
    index('chat_messages_user_id_idx').on(t.userId, t.id),
  ],
);
