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

/** Inserts in flight at once per database; messages arriving meanwhile wait and go in one INSERT. */
const MAX_INSERTS_IN_FLIGHT = 4;
const MAX_BATCH = 200;
interface Pending { row: typeof chatMessages.$inferInsert; resolve: (r: ChatMessageRow | null) => void; reject: (e: unknown) => void }
const batchers = new WeakMap<object, { queue: Pending[]; inFlight: number }>();

/**
 * Under load, messages are stored several per INSERT (one round trip and one commit for all of
 * them); each caller still resumes only once its own row is committed. Returns null for a row that
 * was not inserted because its (sender, clientId) already exists.
 */
function insertBatched(db: Executor, row: typeof chatMessages.$inferInsert): Promise<ChatMessageRow | null> {
  let b = batchers.get(db);
  if (!b) { b = { queue: [], inFlight: 0 }; batchers.set(db, b); }
  const batcher = b;
  const promise = new Promise<ChatMessageRow | null>((resolve, reject) => batcher.queue.push({ row, resolve, reject }));
  const flush = () => {
    if (batcher.inFlight >= MAX_INSERTS_IN_FLIGHT || !batcher.queue.length) return;
    const batch = batcher.queue.splice(0, MAX_BATCH);
    batcher.inFlight += 1;
    db.insert(chatMessages).values(batch.map((p) => p.row)).onConflictDoNothing().returning()
      .then((rows) => {
        const byId = new Map(rows.map((r) => [r.id, r]));
        for (const p of batch) p.resolve(byId.get(p.row.id!) ?? null);
      }, (err: unknown) => {
        // One bad row must not fail its neighbours: retry them one by one.
        if (batch.length === 1) { batch[0]!.reject(err); return; }
        for (const p of batch) {
          db.insert(chatMessages).values(p.row).onConflictDoNothing().returning()
            .then((rows) => p.resolve(rows[0] ?? null), p.reject);
        }
      })
      .finally(() => { batcher.inFlight -= 1; flush(); });
  };
  flush();
  return promise;
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
  /** An assistant's answer standing in for an administrator who did not reply in time. */
  fallback?: boolean;
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
  const row: typeof chatMessages.$inferInsert = {
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
  const inserted = await insertBatched(db, row);
  if (inserted) return { message: inserted, isDuplicate: false };
  // Lost a race with the same resend on another connection or instance.
  const [existing] = await db.select().from(chatMessages)
    .where(and(eq(chatMessages.senderId, m.senderId), eq(chatMessages.clientId, m.clientId ?? ''))).limit(1);
  if (!existing) throw new Error('chat message neither inserted nor found');
  return { message: existing, isDuplicate: true };
}
