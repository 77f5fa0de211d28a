import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../../lib/rate-limit.ts';
import { freePort } from '../../test/ports.ts';
import { createAdmin, createTestApp, createUser, type TestApp, type TestUser } from '../../test/test-app.ts';
import { connectChat, isAck, isMessage, listen, type TestChatClient } from './chat.test-helpers.ts';

/**
 * Redis stops under a running instance (issue 21, point 1, the chat part): chat keeps working on
 * this instance — sockets open, messages are stored, acknowledged and delivered to the
 * administrators connected here, presence and availability answer — and it resumes sharing by
 * itself when Redis returns. The rate limiter is the in-memory one here: its own fall-back is not
 * the chat's.
 */

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const { Redis } = await import('ioredis');
  for (let i = 0; i < 100; i += 1) {
    const probe = new Redis(`redis://127.0.0.1:${port}`, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      await probe.ping();
      probe.disconnect();
      return child;
    } catch {
      probe.disconnect();
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  child.kill('SIGKILL');
  throw new Error('redis-server did not start');
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('chat while Redis is down, and after it returns', () => {
  let port: number;
  let redis: ChildProcess | undefined;
  let t: TestApp;
  let ws: string;
  let admin: TestUser;
  let customer: TestUser;
  const clients: TestChatClient[] = [];
  const connect = async (cookie: string) => {
    const c = await connectChat(ws, { cookie });
    clients.push(c);
    await c.waitFor((e) => e.type === 'hello', 10_000);
    return c;
  };
  const stopRedis = async () => {
    const r = redis;
    redis = undefined;
    if (!r || r.exitCode !== null) return;
    const exited = new Promise((res) => r.once('exit', res));
    r.kill('SIGKILL');
    await exited;
  };

  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    t = await createTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${port}` }, deps: { rateLimiter: createMemoryRateLimiter() } });
    ws = await listen(t.app);
    admin = await createAdmin(t, { name: 'Ada Admin' });
    customer = await createUser(t, { name: 'Carl Customer' });
  }, 120_000);

  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await t?.close();
    await stopRedis();
  }, 60_000);

  it('degrades to this instance without an error, and resumes by itself', async () => {
    const adminSocket = await connect(admin.cookie);
    const customerSocket = await connect(customer.cookie);
    const first = customerSocket.send('Before the outage');
    const ack1 = await customerSocket.waitFor(isAck(first), 10_000);
    await adminSocket.waitFor(isMessage((m) => m.id === ack1.message.id), 10_000);

    await stopRedis();
    await until('redisHealth reports the outage', () => !t.app.ctx.redisHealth.isUp());

    // Messages are stored, acknowledged and delivered here; nothing throws or answers 5xx.
    const during = customerSocket.send('During the outage');
    const ack2 = await customerSocket.waitFor(isAck(during), 10_000);
    await adminSocket.waitFor(isMessage((m) => m.id === ack2.message.id), 10_000);
    const reply = adminSocket.send('Still here', { recipientId: customer.id });
    const replyAck = await adminSocket.waitFor(isAck(reply), 10_000);
    await customerSocket.waitFor(isMessage((m) => m.id === replyAck.message.id), 10_000);
    // New sockets open (counted per instance), presence and status answer from this instance.
    const another = await connect(customer.cookie);
    expect(another.events.some((e) => e.type === 'admin-status' && e.isOnline)).toBe(true);
    for (const url of ['/api/chat/admin-status', '/api/chat/online-users']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie: admin.cookie } });
      expect(res.statusCode, url).toBe(200);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/chat/online-users', headers: { cookie: admin.cookie } })).json<{ users: Array<{ id: string }> }>().users.map((u) => u.id)).toContain(customer.id);
    const toggled = await t.app.inject({ method: 'POST', url: '/api/chat/toggle-admin-status', headers: { cookie: admin.cookie }, payload: { isOnline: true } });
    expect(toggled.statusCode).toBe(200);
    // A sign-out still closes the socket (re-checked on this instance).
    const leaving = await createUser(t, { name: 'Leaving' });
    const leavingSocket = await connect(leaving.cookie);
    expect((await t.app.inject({ method: 'POST', url: '/api/users/signout', headers: { cookie: leaving.cookie } })).statusCode).toBe(200);
    expect((await leavingSocket.closed).code).toBe(4401);

    // Redis returns on the same address: shared state resumes without a restart.
    redis = await startRedis(port);
    await until('redisHealth reports Redis back', () => t.app.ctx.redisHealth.isUp(), 30_000);
    const after = customerSocket.send('After the outage');
    const ack3 = await customerSocket.waitFor(isAck(after), 10_000);
    await adminSocket.waitFor(isMessage((m) => m.id === ack3.message.id), 10_000);
    const fresh = await connect(customer.cookie);
    expect(fresh.events.some((e) => e.type === 'hello')).toBe(true);
    // Presence is written to Redis again (the next connect writes it).
    const { Redis } = await import('ioredis');
    const probe = new Redis(`redis://127.0.0.1:${port}`, { maxRetriesPerRequest: 1 });
    try {
      await until('presence back in Redis', async () => (await probe.zcard('chat:online')) > 0);
    } finally {
      probe.disconnect();
    }
  }, 120_000);
});
