import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMessages, sessions, users } from '../../db/schema.ts';
import { startSession } from '../../lib/auth.ts';
import { createAdmin, createTestApp, createUser, TEST_DB, type TestApp, type TestUser } from '../../test/test-app.ts';
import { RIGHTS_CHANGED_MESSAGE, storeMessage, type NewChatMessage, type SenderRights } from './store-message.ts';

/**
 * The rights a message is stored with (issue 32), checked by its INSERT: alone (the prepared
 * one-message statement) and in a batch (messages arriving while four INSERTs are in flight go in
 * one statement), where each row is checked on its own.
 */
describe(`chat messages are stored only while the sender's rights hold (${TEST_DB})`, () => {
  let t: TestApp;
  let customer: TestUser;
  let admin: TestUser;
  let sessionOf: (u: TestUser) => Promise<string>;

  beforeAll(async () => {
    t = await createTestApp();
    customer = await createUser(t, { name: 'Cora Customer' });
    admin = await createAdmin(t, { name: 'Adam Admin' });
    sessionOf = async (u) => (await startSession(t.database.db, { signer: t.app.ctx.signer, refreshTokenTtlDays: 1 }, u.id)).sessionId;
  });
  afterAll(async () => { await t.close(); });

  const message = (u: TestUser, rights: SenderRights | undefined, clientId: string, recipient?: TestUser): NewChatMessage => ({
    conversationOwner: recipient ? { id: recipient.id, name: recipient.name, email: recipient.email, isGuest: false } : { id: u.id, name: u.name, email: u.email, isGuest: false },
    sender: recipient ? 'admin' : 'user', senderId: u.id, senderName: u.name, senderEmail: u.email, content: `Message ${clientId}`, clientId,
    ...(recipient ? { recipientId: recipient.id } : {}),
    ...(rights ? { rights } : {}),
  });
  const refused = { statusCode: 401, code: 'RIGHTS_CHANGED', message: RIGHTS_CHANGED_MESSAGE };

  it('one message: stored with a live session and the same role; refused (nothing stored) when the session ended or the role changed', async () => {
    const sessionId = await sessionOf(customer);
    const ok = await storeMessage(t.database.db, message(customer, { sessionId, userId: customer.id, isAdmin: false }, 'one-ok'));
    expect(ok.isDuplicate).toBe(false);
    expect(ok.message).toEqual((await t.database.db.select().from(chatMessages).where(eq(chatMessages.id, ok.message.id)))[0]);
    // As an administrator while not one, or as a customer once promoted: refused.
    await expect(storeMessage(t.database.db, message(customer, { sessionId, userId: customer.id, isAdmin: true }, 'one-as-admin', admin))).rejects.toMatchObject(refused);
    // Another user's session: refused.
    await expect(storeMessage(t.database.db, message(customer, { sessionId: await sessionOf(admin), userId: customer.id, isAdmin: false }, 'one-foreign'))).rejects.toMatchObject(refused);
    // Signed out: refused; a resend of a message stored before is still the stored one.
    await t.database.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, sessionId));
    await expect(storeMessage(t.database.db, message(customer, { sessionId, userId: customer.id, isAdmin: false }, 'one-after'))).rejects.toMatchObject(refused);
    const resent = await storeMessage(t.database.db, message(customer, { sessionId, userId: customer.id, isAdmin: false }, 'one-ok'));
    expect(resent).toEqual({ message: ok.message, isDuplicate: true });
    // No rights to check (the assistant, a guest): stored.
    expect((await storeMessage(t.database.db, { ...message(customer, undefined, 'one-ai'), sender: 'ai', senderId: 'ai' })).isDuplicate).toBe(false);
    const stored = await t.database.db.select({ clientId: chatMessages.clientId }).from(chatMessages)
      .where(inArray(chatMessages.clientId, ['one-ok', 'one-as-admin', 'one-foreign', 'one-after', 'one-ai']));
    expect(stored.map((m) => m.clientId).sort()).toEqual(['one-ai', 'one-ok']);
  });

  it('a batch: each row checked on its own, the live ones stored exactly as a later read shows them, the others refused', async () => {
    const live = await sessionOf(customer);
    const ended = await sessionOf(customer);
    await t.database.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, ended));
    const adminSession = await sessionOf(admin);
    const demoted = await createAdmin(t, { name: 'Dora Demoted' });
    const demotedSession = await sessionOf(demoted);
    await t.database.db.update(users).set({ isAdmin: false }).where(eq(users.id, demoted.id));
    // 24 at once: four go alone, the rest wait and go in batches (seen in the statements sent).
    const session = (t.database.db as unknown as { session: { logger: { logQuery(q: string): void }; options: { logger?: unknown } } }).session;
    const saved = session.logger;
    let batchedRows = 0;
    session.logger = { logQuery: (q) => { if (/insert into "chat_messages"/.test(q)) batchedRows = Math.max(batchedRows, q.split('::boolean), (').length); } };
    const cases = Array.from({ length: 24 }, (_, i) => {
      const kind = (['live', 'ended', 'admin', 'demoted'] as const)[i % 4]!;
      const clientId = `batch-${kind}-${i}`;
      if (kind === 'live') return { kind, clientId, m: message(customer, { sessionId: live, userId: customer.id, isAdmin: false }, clientId) };
      if (kind === 'ended') return { kind, clientId, m: message(customer, { sessionId: ended, userId: customer.id, isAdmin: false }, clientId) };
      if (kind === 'admin') return { kind, clientId, m: message(admin, { sessionId: adminSession, userId: admin.id, isAdmin: true }, clientId, customer) };
      return { kind, clientId, m: message(demoted, { sessionId: demotedSession, userId: demoted.id, isAdmin: true }, clientId, customer) };
    });
    const results = await Promise.allSettled(cases.map((c) => storeMessage(t.database.db, c.m)));
    session.logger = saved;
    expect(batchedRows).toBeGreaterThan(1);
    for (const [i, c] of cases.entries()) {
      const r = results[i]!;
      if (c.kind === 'live' || c.kind === 'admin') {
        expect(r.status, c.clientId).toBe('fulfilled');
        const { message: m } = (r as PromiseFulfilledResult<Awaited<ReturnType<typeof storeMessage>>>).value;
        expect(m, c.clientId).toEqual((await t.database.db.select().from(chatMessages).where(eq(chatMessages.id, m.id)))[0]);
        expect(m).toMatchObject({ clientId: c.clientId, sender: c.kind === 'admin' ? 'admin' : 'user', userId: customer.id, content: `Message ${c.clientId}`, fallback: false });
      } else {
        expect(r.status, c.clientId).toBe('rejected');
        expect((r as PromiseRejectedResult).reason, c.clientId).toMatchObject(refused);
      }
    }
    const stored = await t.database.db.select({ clientId: chatMessages.clientId }).from(chatMessages)
      .where(inArray(chatMessages.clientId, cases.map((c) => c.clientId)));
    expect(stored.map((m) => m.clientId).sort()).toEqual(cases.filter((c) => c.kind === 'live' || c.kind === 'admin').map((c) => c.clientId).sort());
  });
});
