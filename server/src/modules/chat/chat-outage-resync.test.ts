import type { ChatMessage, ChatServerEvent, ChatSummary } from '@shop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import type { Database } from '../../db/client.ts';
import { createMemoryRateLimiter } from '../../lib/rate-limit.ts';
import { hasRedisServer, startRedisServer, type TestRedisServer } from '../../test/redis-server.ts';
import { createAdmin, createUser, openTestDatabase, testConfig, type TestApp, type TestUser } from '../../test/test-app.ts';
import { connectChat, isAck, isMessage, listen, type TestChatClient } from './chat.test-helpers.ts';

/**
 * Messages lost between instances during a Redis outage: Jane on instance A, an administrator on
 * instance B, one database, one Redis (a private redis-server) that is killed and started again.
 * What each sends meanwhile is stored but not fanned out, and no socket closes. When Redis is back
 * each instance tells its sockets to resync (`resync` with a time before the gap), the client
 * fetches from the newest message it held from before that time (not its newest: messages sent
 * after the outage arrive first) and merges by id: both sides end with every message exactly once,
 * without a reload.
 */

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** What the web client (ChatConnection) keeps: messages by id, from the socket and from catch-up fetches. */
class ModelClient {
  readonly byId = new Map<string, ChatMessage>();
  constructor(readonly socket: TestChatClient, readonly conversationOf: string) {
    socket.ws.on('message', (raw) => {
      const e = JSON.parse(String(raw)) as ChatServerEvent;
      if ((e.type === 'message' || e.type === 'ack') && e.message.userId === conversationOf) this.byId.set(e.message.id, e.message);
    });
  }
  merge(messages: ChatMessage[]) { for (const m of messages) this.byId.set(m.id, m); }
  sorted() { return [...this.byId.values()].sort((a, b) => a.timestamp.localeCompare(b.timestamp) || a.id.localeCompare(b.id)); }
  get lastId() { return this.sorted().at(-1)?.id; }
  /** ChatConnection.lastIdBefore: where a resync starts. */
  lastIdBefore(since: string) { return this.sorted().filter((m) => m.timestamp < since).at(-1)?.id; }
  /** How many times the socket delivered each message as a `message` event (never twice). */
  liveCounts() {
    const counts = new Map<string, number>();
    for (const e of this.socket.events) if (e.type === 'message') counts.set(e.message.id, (counts.get(e.message.id) ?? 0) + 1);
    return counts;
  }
}

describe.runIf(hasRedisServer)('chat across two instances: a Redis outage loses no message', () => {
  let redis: TestRedisServer;
  let database: Database;
  let cleanup: () => Promise<void>;
  const apps: App[] = [];
  let a: TestApp;
  let b: TestApp;
  let wsA: string;
  let wsB: string;
  let jane: TestUser;
  let admin: TestUser;
  const sockets: TestChatClient[] = [];

  const instance = async (): Promise<TestApp> => {
    const config = testConfig({ REDIS_URL: redis.url, CHAT_SOCKETS_PER_IP: '100' });
    // The rate limiter is the in-memory one: its own Redis fall-back is not the chat's.
    const app = await buildApp({ config, database, logger: false, rateLimiter: createMemoryRateLimiter() });
    await app.ready();
    apps.push(app);
    return { app, database, config, close: () => app.close() };
  };
  const connect = async (ws: string, cookie: string) => {
    const c = await connectChat(ws, { cookie });
    sockets.push(c);
    await c.waitFor((e) => e.type === 'hello', 10_000);
    return c;
  };

  beforeAll(async () => {
    redis = await startRedisServer();
    ({ database, cleanup } = await openTestDatabase());
    a = await instance();
    b = await instance();
    [wsA, wsB] = [await listen(a.app), await listen(b.app)];
    jane = await createUser(a, { name: 'Jane Customer' });
    admin = await createAdmin(b, { name: 'Ada Admin' });
  }, 120_000);

  afterAll(async () => {
    for (const c of sockets) await c.close().catch(() => undefined);
    for (const app of apps) await app.close().catch(() => undefined);
    await cleanup?.();
    await redis?.stop();
  }, 60_000);

  it('both sides end with every message exactly once, without a reload', async () => {
    const janeSocket = await connect(wsA, jane.cookie);
    const adminSocket = await connect(wsB, admin.cookie);
    const janeView = new ModelClient(janeSocket, jane.id);
    const adminView = new ModelClient(adminSocket, jane.id);
    await janeSocket.waitFor((e) => e.type === 'admin-status' && e.isOnline, 10_000);

    // Before the outage: fan-out through Redis both ways.
    const hello = janeSocket.send('Hello, is my order on its way?');
    const helloAck = await janeSocket.waitFor(isAck(hello), 10_000);
    await adminSocket.waitFor(isMessage((m) => m.id === helloAck.message.id), 10_000);
    const answer = adminSocket.send('Let me look.', { recipientId: jane.id });
    const answerAck = await adminSocket.waitFor(isAck(answer), 10_000);
    await janeSocket.waitFor(isMessage((m) => m.id === answerAck.message.id), 10_000);

    // Redis goes away under both instances.
    await redis.stop();
    await until('both instances see the outage', () => !a.app.ctx.redisHealth.isUp() && !b.app.ctx.redisHealth.isUp());
    const during = janeSocket.send('Any news?');
    const duringAck = await janeSocket.waitFor(isAck(during), 10_000); // stored on A (the assistant answers: A sees no administrator)
    const reply = adminSocket.send('It ships tomorrow.', { recipientId: jane.id });
    const replyAck = await adminSocket.waitFor(isAck(reply), 10_000); // stored on B
    await new Promise((r) => setTimeout(r, 500));
    // Lost in fan-out, no socket closed.
    expect(adminView.byId.has(duringAck.message.id)).toBe(false);
    expect(janeView.byId.has(replyAck.message.id)).toBe(false);
    expect([janeSocket.ws.readyState, adminSocket.ws.readyState]).toEqual([janeSocket.ws.OPEN, adminSocket.ws.OPEN]);

    // Redis returns: each instance tells its sockets to resync once its commands and subscription are back.
    await redis.start();
    await until('both instances see Redis back', () => a.app.ctx.redisHealth.isUp() && b.app.ctx.redisHealth.isUp(), 30_000);
    const isResync = (e: ChatServerEvent): e is Extract<ChatServerEvent, { type: 'resync' }> => e.type === 'resync';
    const [janeResync, adminResync] = await Promise.all([janeSocket.waitFor(isResync, 15_000), adminSocket.waitFor(isResync, 15_000)]);

    // Newer messages arrive live before the clients act on the resync: their newest id is past the gap.
    const after = janeSocket.send('Thanks!');
    const afterAck = await janeSocket.waitFor(isAck(after), 10_000);
    await adminSocket.waitFor(isMessage((m) => m.id === afterAck.message.id), 10_000);
    const bye = adminSocket.send('You are welcome.', { recipientId: jane.id });
    const byeAck = await adminSocket.waitFor(isAck(bye), 10_000);
    await janeSocket.waitFor(isMessage((m) => m.id === byeAck.message.id), 10_000);

    const janeHistory = async (afterId: string | undefined) =>
      (await a.app.inject({ method: 'GET', url: '/api/chat/history', query: afterId ? { after: afterId } : {}, headers: { cookie: jane.cookie } })).json<ChatSummary[]>()[0]?.messages ?? [];
    const adminHistory = async (afterId: string | undefined) =>
      (await b.app.inject({ method: 'GET', url: `/api/chat/user-messages/${jane.id}`, query: afterId ? { after: afterId } : {}, headers: { cookie: admin.cookie } })).json<{ messages: ChatMessage[] }>().messages;

    // A catch-up after the newest id would find nothing: the gap would stay until a reload.
    expect(await janeHistory(janeView.lastId)).toEqual([]);

    // The client's catch-up on resync: from the newest message it held from before the gap.
    janeView.merge(await janeHistory(janeView.lastIdBefore(janeResync.since)));
    adminView.merge(await adminHistory(adminView.lastIdBefore(adminResync.since)));

    const stored = (await janeHistory(undefined)).map((m) => m.id);
    expect(stored).toEqual(expect.arrayContaining([helloAck.message.id, answerAck.message.id, duringAck.message.id, replyAck.message.id, afterAck.message.id, byeAck.message.id]));
    expect(janeView.sorted().map((m) => m.id)).toEqual(stored);
    expect(adminView.sorted().map((m) => m.id)).toEqual(stored);
    // The socket itself never delivered a message twice.
    for (const view of [janeView, adminView]) expect([...view.liveCounts().values()].every((n) => n === 1)).toBe(true);
  }, 120_000);
});
