import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/client.ts';
import { migrate } from '../../db/migrate.ts';
import { users } from '../../db/schema.ts';
import { ACCESS_COOKIE, startSession } from '../../lib/auth.ts';
import { newId } from '../../lib/ids.ts';
import { createTokenSigner } from '../../lib/tokens.ts';
import { createScratchPostgres, TEST_DB } from '../../test/test-app.ts';
import { connectChat, isAck, isMessage, type TestChatClient } from './chat.test-helpers.ts';
import { startInstance, type ShopInstance } from './chat-instances.test-helpers.ts';
import { flushIsolatedRedis, isolatedRedisUrl } from '../../test/redis.ts';

const REDIS_URL = isolatedRedisUrl('chat-instances');
const SECRET = 'two-instances-secret-two-instances-secret';
const start = (env: Record<string, string>) => startInstance({ JWT_SECRET: SECRET, ...env });
const SOCKETS_PER_IP = 3;


// Two real server processes on one PostgreSQL and one Redis (the fleet set-up of the README).
describe.runIf(TEST_DB === 'postgres' && REDIS_URL)('chat across two instances (PostgreSQL + Redis)', () => {
  let scratch: { url: string; drop: () => Promise<void> };
  let database: Database;
  let a: ShopInstance;
  let b: ShopInstance;
  const clients: TestChatClient[] = [];
  const cookies: Record<'admin' | 'customer', { id: string; cookie: string }> = {} as never;

  beforeAll(async () => {
    await flushIsolatedRedis(REDIS_URL!);
    scratch = await createScratchPostgres();
    database = await openDatabase({ databaseUrl: scratch.url, poolSize: 2 });
    await migrate(database);
    const signer = createTokenSigner(SECRET, 900);
    for (const [key, isAdmin] of [['admin', true], ['customer', false]] as const) {
      const id = newId();
      await database.db.insert(users).values({ id, name: isAdmin ? 'Ada Admin' : 'Carl Customer', email: `${key}-${id}@example.com`, passwordHash: 'x', isAdmin });
      const session = await startSession(database.db, { signer, refreshTokenTtlDays: 1 }, id);
      cookies[key] = { id, cookie: `${ACCESS_COOKIE}=${session.accessToken}` };
    }
    // TRUST_PROXY: the sockets-per-IP test below comes "from" an address given in X-Forwarded-For.
    const env = { DATABASE_URL: scratch.url, REDIS_URL: REDIS_URL!, DATABASE_POOL_SIZE: '3', TRUST_PROXY: 'true', CHAT_SOCKETS_PER_IP: String(SOCKETS_PER_IP) };
    [a, b] = await Promise.all([start(env), start(env)]);
  }, 120_000);

  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    for (const inst of [a, b]) {
      if (!inst) continue;
      const exited = new Promise((r) => inst.child.once('exit', r));
      inst.child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (inst.child.exitCode === null) inst.child.kill('SIGKILL');
    }
    await database?.close();
    await scratch?.drop();
  }, 60_000);

  it('a customer on instance A talks to an administrator on instance B', async () => {
    const customer = await connectChat(a.url, { cookie: cookies.customer.cookie });
    clients.push(customer);
    await customer.waitFor((e) => e.type === 'admin-status' && !e.isOnline);
    const admin = await connectChat(b.url, { cookie: cookies.admin.cookie });
    clients.push(admin);
    // Presence and availability are shared: A learns that an administrator is online on B.
    await customer.waitFor((e) => e.type === 'admin-status' && e.isOnline, 10_000);
    const onlineOnB = await admin.waitFor((e) => e.type === 'online-users' && e.users.some((u) => u.id === cookies.customer.id), 10_000);
    expect(onlineOnB.type).toBe('online-users');

    const id = customer.send('Hello from instance A');
    const ack = await customer.waitFor(isAck(id));
    const atAdmin = await admin.waitFor(isMessage((m) => m.id === ack.message.id), 10_000);
    expect(atAdmin.message).toMatchObject({ sender: 'user', content: 'Hello from instance A', userId: cookies.customer.id });

    const replyId = admin.send('Hello from instance B', { recipientId: cookies.customer.id });
    const replyAck = await admin.waitFor(isAck(replyId));
    const atCustomer = await customer.waitFor(isMessage((m) => m.id === replyAck.message.id), 10_000);
    expect(atCustomer.message).toMatchObject({ sender: 'admin', content: 'Hello from instance B' });
    // No AI answer while the administrator is online.
    await new Promise((r) => setTimeout(r, 300));
    expect(customer.events.some((e) => e.type === 'message' && e.message.sender === 'ai')).toBe(false);

    // The administrator on B goes offline: the customer on A now gets AI answers.
    await admin.close();
    await customer.waitFor((e) => e.type === 'admin-status' && !e.isOnline && customer.events.indexOf(e) > customer.events.indexOf(atCustomer), 10_000);
    const id2 = customer.send('what is your return policy?');
    const ack2 = await customer.waitFor(isAck(id2));
    const ai = await customer.waitFor(isMessage((m) => m.sender === 'ai' && m.clientId === `ai:${ack2.message.id}`), 10_000);
    expect(ai.message.content).toContain('30 days');
  }, 60_000);

  it('the sockets-per-IP limit holds across both instances', async () => {
    const from = { 'x-forwarded-for': '203.0.113.7' };
    const open = async (url: string) => {
      const c = await connectChat(url, { cookie: cookies.customer.cookie, headers: from });
      clients.push(c);
      return c;
    };
    // Two on A and one on B: three sockets for the IP, the limit.
    const held = [await open(a.url), await open(a.url), await open(b.url)];
    for (const c of held) await c.waitFor((e) => e.type === 'hello');
    // A fourth, on either instance, is refused; so is one from B after A's.
    const fourthOnB = await open(b.url);
    expect((await fourthOnB.closed).code).toBe(4429);
    const fourthOnA = await open(a.url);
    expect((await fourthOnA.closed).code).toBe(4429);
    // Another IP is not affected.
    const other = await connectChat(b.url, { cookie: cookies.customer.cookie, headers: { 'x-forwarded-for': '203.0.113.8' } });
    clients.push(other);
    await other.waitFor((e) => e.type === 'hello');
    // A socket closed on A frees a place for B.
    await held[0]!.close();
    let again: TestChatClient | null = null;
    for (let i = 0; i < 20 && !again; i += 1) {
      const c = await open(b.url);
      const outcome = await Promise.race([c.waitFor((e) => e.type === 'hello').then(() => 'open' as const), c.closed.then(() => 'closed' as const)]);
      if (outcome === 'open') again = c;
      else await new Promise((r) => setTimeout(r, 100));
    }
    expect(again).not.toBeNull();
    for (const c of [...held.slice(1), other, again!]) await c.close();
  }, 60_000);
});
