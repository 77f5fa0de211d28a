import { and, asc, count, desc, eq, exists, ilike, inArray, notExists, or, sql, type SQL } from 'drizzle-orm';
import type { ChatSummary } from '@shop/contracts';
import type { Executor } from '../../db/client.ts';
import { chatConversations, chatMessages, users } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { presentMessage, presentSummary } from './chat.presenter.ts';
import { ACTIVITY_REFRESH_MS } from './store-message.ts';

/** Most messages one read returns; a client asks again with `after` for more. */
export const MESSAGES_PAGE = 500;
export const HISTORY_PAGE_SIZE = 20;

/** A conversation's messages in order, optionally only those after a message id (after a reconnect). */
export async function listConversationMessages(db: Executor, userId: string, after?: string) {
  // "After" is by (created_at, id), the order messages are shown in, whichever instance stored them.
  const where = after
    ? and(eq(chatMessages.userId, userId), sql`(${chatMessages.createdAt}, ${chatMessages.id}) > (select m.created_at, m.id from chat_messages m where m.id = ${after} and m.user_id = ${userId})`)
    : eq(chatMessages.userId, userId);
  // ids are time-ordered with a per-process counter; created_at then id gives the order across instances.
  const rows = await db.select().from(chatMessages).where(where)
    .orderBy(asc(chatMessages.createdAt), asc(chatMessages.id)).limit(MESSAGES_PAGE);
  return rows.map(presentMessage);
}

/** The caller's own conversation as the history call returns it: an array with at most one summary. */
export async function getOwnHistory(db: Executor, userId: string, after?: string): Promise<ChatSummary[]> {
  const [conversation] = await db.select().from(chatConversations).where(eq(chatConversations.userId, userId)).limit(1);
  if (!conversation) return [];
  const messages = await listConversationMessages(db, userId, after);
  return [{ ...presentSummary(conversation, []), messages, messageCount: messages.length }];
}

/** The conversation is not an administrator's own (those are hidden from the back office, SPEC §2). */
export const notAdminOwner = (db: Executor) => notExists(
  db.select({ one: sql`1` }).from(users).where(and(eq(users.isAdmin, true), sql`${users.id} = ${chatConversations.userId}`)),
);

/**
 * A customer's messages the administrators have not read in a conversation: those after its read
 * mark (all of them while it has none), in the order messages are shown, (created_at, id).
 */
export const unreadMessagesOf = (conversation: typeof chatConversations): SQL => and(
  eq(chatMessages.userId, conversation.userId),
  eq(chatMessages.sender, 'user'),
  sql`(${conversation.adminReadAt} IS NULL OR (${chatMessages.createdAt}, ${chatMessages.id}) > (${conversation.adminReadAt}, ${conversation.adminReadId}))`,
)!;

/**
 * How many conversations (all of them, whatever the search) hold unread messages. A conversation's
 * last_activity lags its newest message by at most ACTIVITY_REFRESH_MS, so one last active that much
 * before its read mark has nothing new and is skipped without looking at its messages.
 */
async function countUnreadConversations(db: Executor): Promise<number> {
  const [row] = await db.select({ n: count() }).from(chatConversations).where(and(
    notAdminOwner(db),
    sql`(${chatConversations.adminReadAt} IS NULL OR ${chatConversations.lastActivity} > ${chatConversations.adminReadAt} - make_interval(secs => ${ACTIVITY_REFRESH_MS / 1000}))`,
    exists(db.select({ one: sql`1` }).from(chatMessages).where(unreadMessagesOf(chatConversations))),
  ));
  return Number(row?.n ?? 0);
}

/**
 * Administrators' history list: newest activity first, searchable by name or e-mail, paged;
 * conversations of administrator accounts are hidden (SPEC §2). Each summary carries its last message
 * and how many of the customer's messages are unread; the answer, how many conversations are.
 */
export async function listAllHistory(db: Executor, opts: { search?: string | undefined; page: number }) {
  const conds: SQL[] = [notAdminOwner(db)];
  const term = opts.search?.trim();
  if (term) {
    const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conds.push(or(ilike(chatConversations.userName, like), ilike(chatConversations.userEmail, like))!);
  }
  const where = and(...conds);
  const [total] = await db.select({ n: count() }).from(chatConversations).where(where);
  const rows = await db.select().from(chatConversations).where(where)
    .orderBy(desc(chatConversations.lastActivity), desc(chatConversations.id))
    .limit(HISTORY_PAGE_SIZE).offset((opts.page - 1) * HISTORY_PAGE_SIZE);
  const ids = rows.map((r) => r.userId);
  const counts = ids.length
    ? await db.select({ userId: chatMessages.userId, n: count() }).from(chatMessages).where(inArray(chatMessages.userId, ids)).groupBy(chatMessages.userId)
    : [];
  const lasts = ids.length
    ? await db.selectDistinctOn([chatMessages.userId]).from(chatMessages).where(inArray(chatMessages.userId, ids))
      .orderBy(chatMessages.userId, desc(chatMessages.createdAt), desc(chatMessages.id))
    : [];
  const unread = ids.length
    ? await db.select({ userId: chatMessages.userId, n: count() }).from(chatMessages)
      .innerJoin(chatConversations, eq(chatConversations.userId, chatMessages.userId))
      .where(and(inArray(chatMessages.userId, ids), unreadMessagesOf(chatConversations))).groupBy(chatMessages.userId)
    : [];
  const totalCount = Number(total?.n ?? 0);
  return {
    chats: rows.map((c) => ({
      ...presentSummary(c, lasts.filter((m) => m.userId === c.userId), Number(counts.find((x) => x.userId === c.userId)?.n ?? 0)),
      unread: Number(unread.find((x) => x.userId === c.userId)?.n ?? 0),
    })),
    page: opts.page,
    pages: Math.max(1, Math.ceil(totalCount / HISTORY_PAGE_SIZE)),
    total: totalCount,
    unreadConversations: await countUnreadConversations(db),
  };
}

/** One conversation with all its messages, for administrators; 'Chat not found' otherwise. */
export async function getChatById(db: Executor, id: string): Promise<ChatSummary> {
  const [conversation] = await db.select().from(chatConversations).where(and(eq(chatConversations.id, id), notAdminOwner(db))).limit(1);
  if (!conversation) throw notFound('Chat not found');
  const messages = await listConversationMessages(db, conversation.userId);
  return { ...presentSummary(conversation, []), messages, messageCount: messages.length };
}
