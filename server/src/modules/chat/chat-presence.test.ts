import { CHAT_ADMIN_ACTIVITY_LAPSE_MS, CHAT_FALLBACK_NOTICE, type ChatServerEvent } from '@shop/contracts';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chatMessages } from '../../db/schema.ts';
import { createAdmin, createTestApp, createUser, type TestApp, type TestUser } from '../../test/test-app.ts';
import { BROADCAST_CHUNK, createChatHub, PRESENCE_TTL_MS, type ChatIdentity } from './chat-hub.ts';
import { connectChat, isAck, isMessage, listen, type TestChatClient } from './chat.test-helpers.ts';

const admin: ChatIdentity = { id: 'a1', name: 'Ada', email: 'ada@example.com', isAdmin: true, isGuest: false };
const customer: ChatIdentity = { id: 'c1', name: 'Carl', email: 'carl@example.com', isAdmin: false, isGuest: false };

describe('presence: an administrator is online only while available, connected and active', () => {
  it('lapses 45 s after the last activity heartbeat; a heartbeat brings them back; availability off wins', async () => {
    let clock = 1_000_000;
    const hub = createChatHub({ now: () => clock, adminStatusCheckMs: 3_600_000 });
    const seen: string[] = [];
    const socket = { send: (d: string) => seen.push(d) };
    expect(await hub.isAdminOnline()).toBe(false);
    await hub.attach(admin, socket); // opening the chat counts as activity
    expect(await hub.isAdminOnline()).toBe(true);
    clock += CHAT_ADMIN_ACTIVITY_LAPSE_MS - 2000;
    hub.activity(admin);
    clock += CHAT_ADMIN_ACTIVITY_LAPSE_MS - 2000;
    expect(await hub.isAdminOnline()).toBe(true); // kept alive by the heartbeat
    clock += 3000;
    expect(await hub.isAdminOnline()).toBe(false); // no heartbeat for 46 s: the tab is hidden or idle
    hub.activity(admin);
    await new Promise((r) => setTimeout(r, 10));
    expect(await hub.isAdminOnline()).toBe(true);
    expect(seen.some((d) => (JSON.parse(d) as ChatServerEvent).type === 'admin-status')).toBe(true); // back after a lapse: announced
    await hub.setAdminAvailable(admin.id, false);
    expect(await hub.isAdminOnline()).toBe(false);
    await hub.setAdminAvailable(admin.id, true);
    await hub.detach(admin, socket);
    expect(await hub.isAdminOnline()).toBe(false); // no socket, not online
    await hub.close();
  });

  it('a customer\'s activity frame changes nothing; the status check announces a lapse to local sockets with the responder', async () => {
    let clock = 1_000_000;
    const hub = createChatHub({ now: () => clock, adminStatusCheckMs: 20 });
    const events: ChatServerEvent[] = [];
    const changes: boolean[] = [];
    hub.onAdminStatusChange((online) => changes.push(online));
    await hub.attach(customer, { send: (d) => events.push(JSON.parse(d) as ChatServerEvent) });
    hub.activity(customer);
    await hub.attach(admin, { send: () => undefined });
    await new Promise((r) => setTimeout(r, 100));
    expect(changes.at(-1)).toBe(true);
    clock += CHAT_ADMIN_ACTIVITY_LAPSE_MS + 1000;
    await new Promise((r) => setTimeout(r, 100));
    expect(changes.at(-1)).toBe(false);
    expect(events.filter((e) => e.type === 'admin-status').at(-1)).toEqual({ type: 'admin-status', isOnline: false });
    await hub.close();
  });
});

describe('presence renewal', () => {
  it('members stay online while their sockets stay open (renewed a few at a time); a detached one drops out', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      let clock = 1_000_000;
      const hub = createChatHub({ now: () => clock, adminStatusCheckMs: 3_600_000 });
      const guests: ChatIdentity[] = Array.from({ length: 2000 }, (_, i) => ({ id: `guest-${i}`, name: `Guest ${i}`, email: '', isAdmin: false, isGuest: true }));
      const sockets = guests.map(() => ({ send: () => undefined }));
      for (const [i, g] of guests.entries()) await hub.attach(g, sockets[i]!);
      await hub.detach(guests[0]!, sockets[0]!);
      for (let t = 0; t < 3 * PRESENCE_TTL_MS; t += 250) {
        clock += 250;
        vi.advanceTimersByTime(250);
      }
      const online = await hub.onlineUsers();
      expect(online).toHaveLength(1999);
      expect(online.some((u) => u.id === 'guest-0')).toBe(false);
      await hub.close();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a broadcast to every socket', () => {
  it('goes out a chunk per event-loop turn, in order, once to each socket; a conversation\'s message is not held behind it', async () => {
    const hub = createChatHub({ adminStatusCheckMs: 3_600_000 });
    const n = BROADCAST_CHUNK * 2 + 200;
    const seen: ChatServerEvent[][] = [];
    for (let i = 0; i < n; i += 1) {
      const events: ChatServerEvent[] = [];
      seen.push(events);
      await hub.attach({ id: `guest-${i}`, name: `Guest ${i}`, email: '', isAdmin: false, isGuest: true }, { send: (d) => events.push(JSON.parse(d) as ChatServerEvent) });
    }
    for (const events of seen) events.length = 0;
    hub.deliverLocal({ to: 'all' }, { type: 'admin-status', isOnline: true });
    hub.deliverLocal({ to: 'all' }, { type: 'admin-status', isOnline: false });
    hub.deliverLocal({ to: 'user', userId: `guest-${n - 1}` }, { type: 'ping' });
    // One chunk of the first broadcast went out at once; the last socket already has its own event.
    expect(seen.filter((e) => e.length && e[0]!.type === 'admin-status').length).toBe(BROADCAST_CHUNK);
    expect(seen[n - 1]).toEqual([{ type: 'ping' }]);
    // The rest go out on the next turns: waited for, however busy the machine (no fixed delay).
    await vi.waitFor(() => {
      for (const [i, events] of seen.entries()) {
        const statuses = events.filter((e) => e.type === 'admin-status');
        expect(statuses, `socket ${i}`).toEqual([{ type: 'admin-status', isOnline: true }, { type: 'admin-status', isOnline: false }]);
      }
    }, { timeout: 20_000, interval: 5 });
    await hub.close();
  });
});

describe('Redis unreachable: the hub falls back to this instance', () => {
  it('publishes, presence, availability and guest endings work locally and never throw, whether Redis is known down or fails', async () => {
    // Nothing listens on port 1; no offline queue, so each command fails at once.
    const dead = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    dead.on('error', () => undefined);
    for (const up of [false, true]) {
      const errors: string[] = [];
      const hub = createChatHub({ redis: dead, isRedisUp: () => up, onError: (_e, what) => errors.push(what), adminStatusCheckMs: 3_600_000 });
      const got: ChatServerEvent[] = [];
      await hub.attach(customer, { send: (d) => got.push(JSON.parse(d) as ChatServerEvent) });
      await hub.attach(admin, { send: () => undefined });
      await hub.publish({ to: 'user', userId: customer.id }, { type: 'ping' });
      expect(got).toEqual([{ type: 'ping' }]);
      expect((await hub.onlineUsers()).map((u) => u.id)).toEqual([customer.id]);
      expect(await hub.isAdminOnline()).toBe(true);
      await hub.setAdminAvailable(admin.id, false);
      expect(await hub.isAdminAvailable(admin.id)).toBe(false);
      await hub.endGuest('guest_x');
      expect(await hub.isGuestEnded('guest_x')).toBe(true);
      await hub.recheck(customer.id);
      await hub.close();
      // Known down: no command is tried (only the subscriber's own connection, which reconnects
      // by itself). Failing: each failure is absorbed and reported.
      if (!up) expect(errors.filter((w) => w !== 'subscribe')).toEqual([]);
      else expect(errors.filter((w) => w !== 'subscribe').length).toBeGreaterThan(0);
    }
    dead.disconnect();
  });
});

describe('reply wait: the assistant answers when no administrator replied in time', () => {
  let t: TestApp;
  let ws: string;
  let ada: TestUser;
  let jane: TestUser;
  const clients: TestChatClient[] = [];
  const connect = async (cookie: string) => {
    const c = await connectChat(ws, { cookie });
    clients.push(c);
    await c.waitFor((e) => e.type === 'hello');
    return c;
  };

  beforeAll(async () => {
    t = await createTestApp({ env: { CHAT_ADMIN_REPLY_SECONDS: '1' } });
    ws = await listen(t.app);
    ada = await createAdmin(t, { name: 'Ada Admin' });
    jane = await createUser(t, { name: 'Jane Customer' });
  }, 120_000);
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await t?.close();
  });

  it('the customer sees who answers; silence past CHAT_ADMIN_REPLY_SECONDS brings a fallback answer that both see; a reply in time does not', async () => {
    const customerAlone = await connect(jane.cookie);
    await customerAlone.waitFor((e) => e.type === 'responder' && e.responder === 'ai');
    const adminSocket = await connect(ada.cookie);
    await customerAlone.waitFor((e) => e.type === 'responder' && e.responder === 'admin' && e.replyWithinSeconds === 1, 10_000);
    const customerSocket = await connect(jane.cookie);
    expect(customerSocket.events.find((e) => e.type === 'responder')).toEqual({ type: 'responder', responder: 'admin', replyWithinSeconds: 1 });

    // No administrator answers.
    await t.app.ctx.jobs.runDue(); // nothing else queued: the counts below are this message's jobs
    const askId = customerSocket.send('Where is my parcel?');
    const asked = await customerSocket.waitFor(isAck(askId));
    // Only the lead's update (a job too) runs: the reply wait is not due yet, the administrator has a second.
    expect(await t.app.ctx.jobs.runDue()).toBe(1);
    expect(await t.database.db.select().from(chatMessages).where(eq(chatMessages.fallback, true))).toEqual([]);
    await new Promise((r) => setTimeout(r, 1200));
    expect(await t.app.ctx.jobs.runDue()).toBe(1);
    const fallback = await customerSocket.waitFor(isMessage((m) => m.sender === 'ai' && m.clientId === `fallback:${asked.message.id}`));
    expect(fallback.message.fallback).toBe(true);
    expect(fallback.message.content.startsWith(CHAT_FALLBACK_NOTICE)).toBe(true);
    const atAdmin = await adminSocket.waitFor(isMessage((m) => m.id === fallback.message.id));
    expect(atAdmin.message.fallback).toBe(true);
    const history = await t.app.inject({ method: 'GET', url: `/api/chat/user-messages/${jane.id}`, headers: { cookie: ada.cookie } });
    expect(JSON.stringify(history.json())).toContain('"fallback":true');

    // The administrator answers in time: no fallback.
    const secondId = customerSocket.send('And my invoice?');
    const second = await customerSocket.waitFor(isAck(secondId));
    const replyId = adminSocket.send('Sending it now.', { recipientId: jane.id });
    await adminSocket.waitFor(isAck(replyId));
    await new Promise((r) => setTimeout(r, 1200));
    expect(await t.app.ctx.jobs.runDue()).toBe(1);
    const fallbacks = await t.database.db.select().from(chatMessages).where(eq(chatMessages.fallback, true));
    expect(fallbacks.map((m) => m.clientId)).toEqual([`fallback:${asked.message.id}`]);
    expect(fallbacks.some((m) => m.clientId === `fallback:${second.message.id}`)).toBe(false);

    // The administrator leaves: the customer is told the assistant answers now.
    const before = customerSocket.events.length;
    await adminSocket.close();
    await customerSocket.waitFor((e) => e.type === 'responder' && e.responder === 'ai' && customerSocket.events.indexOf(e) >= before, 10_000);
  }, 60_000);
});
