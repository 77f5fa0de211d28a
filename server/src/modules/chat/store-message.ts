import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { builtOnce } from '../../db/built-once.ts';
import { readColumns } from '../../db/raw-rows.ts';
import { chatConversations, chatMessages, sessions, users, type ChatSender } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
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

/** Inserts in flight at once per database; messages arriving meanwhile wait and go in one INSERT. */
const MAX_INSERTS_IN_FLIGHT = 4;
const MAX_BATCH = 200;
type MessageRow = typeof chatMessages.$inferInsert & { id: string; conversationId: string; createdAt: Date };
interface Pending { row: MessageRow; rights: SenderRights | undefined; resolve: (r: ChatMessageRow | null) => void; reject: (e: unknown) => void }
const batchers = new WeakMap<object, { queue: Pending[]; inFlight: number }>();

/**
 * The rights a message is sent with: the sender's session, and whether they write as an
 * administrator. The INSERT itself checks them against the database (issue 32), so a message is
 * stored only while its session lives and its account has exactly these rights: a demotion,
 * sign-out, deletion or password change that committed before the INSERT began refuses it, on every
 * instance, whatever its sockets have been told yet.
 */
export interface SenderRights {
  sessionId: string;
  userId: string;
  isAdmin: boolean;
}

/** The message's columns, in the order of the INSERT below. */
const COLUMNS = sql.raw('id, conversation_id, user_id, sender, sender_id, sender_name, sender_email, recipient_id, content, client_id, created_at, fallback');

/** A row is written when it has no rights to check, or its session lives with the same role: `v` is the row. */
const RIGHTS_HOLD = sql`v.rights_session is null or exists (
      select 1 from ${sessions} s inner join ${users} u on u.id = s.user_id
      where s.id = v.rights_session and s.user_id = v.rights_user and s.revoked_at is null and s.expires_at > now()
        and u.is_admin = v.rights_admin)`;

/**
 * The INSERT of one message (the usual case: a batch forms only while the database is busy), built
 * once per database handle and prepared: its plan (the rights check's join) is made once, not per
 * message.
 */
const singleInsert = builtOnce<'one', ReturnType<typeof buildSingleInsert>>();
function buildSingleInsert(db: Executor) {
  const p = (name: string) => sql.placeholder(name);
  return db.insert(chatMessages).select(sql`select ${COLUMNS} from (values (${p('id')}::char(24), ${p('conversationId')}::char(24), ${p('userId')}::text,
      ${p('sender')}::text, ${p('senderId')}::text, ${p('senderName')}::text, ${p('senderEmail')}::text, ${p('recipientId')}::text, ${p('content')}::text,
      ${p('clientId')}::text, ${p('createdAt')}::timestamptz, ${p('fallback')}::boolean,
      ${p('rightsSession')}::char(24), ${p('rightsUser')}::char(24), ${p('rightsAdmin')}::boolean)) as v(${COLUMNS}, rights_session, rights_user, rights_admin)
    where ${RIGHTS_HOLD}`).onConflictDoNothing().returning().prepare('chat_message_insert');
}

/**
 * One INSERT for a batch: each row is written only when its rights (if any) still hold, checked
 * in the same statement as the write (two primary-key lookups, no extra round trip). Rows already
 * stored ((sender_id, client_id) taken) or refused come back missing.
 */
async function insertRows(db: Executor, batch: Array<Pick<Pending, 'row' | 'rights'>>): Promise<ChatMessageRow[]> {
  if (batch.length === 1) {
    const { row: r, rights } = batch[0]!;
    return singleInsert(db, 'one', () => buildSingleInsert(db)).execute({
      id: r.id, conversationId: r.conversationId, userId: r.userId, sender: r.sender, senderId: r.senderId, senderName: r.senderName,
      senderEmail: r.senderEmail, recipientId: r.recipientId ?? null, content: r.content, clientId: r.clientId ?? null,
      createdAt: r.createdAt.toISOString(), fallback: r.fallback ?? false,
      rightsSession: rights?.sessionId ?? null, rightsUser: rights?.userId ?? null, rightsAdmin: rights?.isAdmin ?? null,
    });
  }
  const values = sql.join(batch.map(({ row: r, rights }) => sql`(${r.id}::char(24), ${r.conversationId}::char(24), ${r.userId}::text, ${r.sender}::text,
    ${r.senderId}::text, ${r.senderName}::text, ${r.senderEmail}::text, ${r.recipientId ?? null}::text, ${r.content}::text, ${r.clientId ?? null}::text,
    ${r.createdAt.toISOString()}::timestamptz, ${r.fallback ?? false}::boolean,
    ${rights?.sessionId ?? null}::char(24), ${rights?.userId ?? null}::char(24), ${rights?.isAdmin ?? null}::boolean)`), sql`, `);
  const { rows } = (await db.execute(sql`
    insert into ${chatMessages} (${COLUMNS})
    select ${COLUMNS} from (values ${values}) as v(${COLUMNS}, rights_session, rights_user, rights_admin)
    where ${RIGHTS_HOLD}
    on conflict do nothing
    returning *`)) as unknown as { rows: Array<Record<string, unknown>> };
  return rows.map((row) => readColumns<ChatMessageRow>(getTableColumns(chatMessages), row, ''));
}

/**
 * Under load, messages are stored several per INSERT (one round trip and one commit for all of
 * them); each caller still resumes only once its own row is committed. Returns null for a row that
 * was not inserted: its (sender, clientId) already exists, or its rights no longer hold.
 */
function insertBatched(db: Executor, row: MessageRow, rights: SenderRights | undefined): Promise<ChatMessageRow | null> {
  let b = batchers.get(db);
  if (!b) { b = { queue: [], inFlight: 0 }; batchers.set(db, b); }
  const batcher = b;
  const promise = new Promise<ChatMessageRow | null>((resolve, reject) => batcher.queue.push({ row, rights, resolve, reject }));
  const flush = () => {
    if (batcher.inFlight >= MAX_INSERTS_IN_FLIGHT || !batcher.queue.length) return;
    const batch = batcher.queue.splice(0, MAX_BATCH);
    batcher.inFlight += 1;
    insertRows(db, batch)
      .then((rows) => {
        const byId = new Map(rows.map((r) => [r.id, r]));
        for (const p of batch) p.resolve(byId.get(p.row.id) ?? null);
      }, (err: unknown) => {
        // One bad row must not fail its neighbours: retry them one by one.
        if (batch.length === 1) { batch[0]!.reject(err); return; }
        for (const p of batch) insertRows(db, [p]).then((rows) => p.resolve(rows[0] ?? null), p.reject);
      })
      .finally(() => { batcher.inFlight -= 1; flush(); });
  };
  flush();
  return promise;
}

/** A message refused because the sender's session ended or their rights changed since the socket opened. */
export const RIGHTS_CHANGED_MESSAGE = 'Your session ended or your rights changed. Please sign in again.';
export const rightsChanged = () => new AppError(401, RIGHTS_CHANGED_MESSAGE, 'RIGHTS_CHANGED');

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
  /** An assistant's answer standing in for an administrator who did not reply in time. */
  fallback?: boolean;
  /** A signed-in sender's session and rights, checked by the INSERT (see SenderRights); none for guests and the assistant. */
  rights?: SenderRights;
}

/**
 * Stores a message (creating the owner's conversation on first contact) before anything is
 * acknowledged or delivered. A message whose (sender, clientId) is already stored is a resend:
 * the stored one is returned with `isDuplicate`, and nothing is written. A message whose `rights`
 * no longer hold is refused (401 RIGHTS_CHANGED) and nothing of it is stored.
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
  const row: MessageRow = {
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
    ...(m.fallback ? { fallback: true } : {}),
  };
  const inserted = await insertBatched(db, row, m.rights);
  if (inserted) return { message: inserted, isDuplicate: false };
  // A resend of a message already stored (on another connection or instance: a lost race)...
  const [existing] = await db.select().from(chatMessages)
    .where(and(eq(chatMessages.senderId, m.senderId), eq(chatMessages.clientId, m.clientId ?? ''))).limit(1);
  if (existing) return { message: existing, isDuplicate: true };
  // ...or a message its sender no longer has the rights to send.
  if (m.rights) throw rightsChanged();
  throw new Error('chat message neither inserted nor found');
}
