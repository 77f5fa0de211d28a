import { CHAT_CLOSE_SERVICE_RESTART } from '@shop/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatConversations, chatMessages, leads } from '../../db/schema.ts';
import { createProduct } from '../../test/commerce-factories.ts';
import { createAdmin, createTestApp, createUser, type TestApp, type TestUser } from '../../test/test-app.ts';
import { DEMO_CATALOGUE } from '../../db/seed/catalogue-data.ts';
import { connectChat, guestCookieOf, isAck, isError, isMessage, listen, type TestChatClient } from './chat.test-helpers.ts';

describe('chat: REST, websocket routing, persistence, limits', () => {
  let t: TestApp;
  let ws: string;
  let admin: TestUser;
  let jane: TestUser;
  let bob: TestUser;
  const clients: TestChatClient[] = [];
  const connect = async (opts: Parameters<typeof connectChat>[1]) => {
    const c = await connectChat(ws, opts);
    clients.push(c);
    await c.waitFor((e) => e.type === 'admin-status');
    return c;
  };

  beforeAll(async () => {
    t = await createTestApp({ env: { CHAT_MESSAGES_PER_MINUTE: '200', CHAT_IP_MESSAGES_PER_MINUTE: '1000', CHAT_SOCKETS_PER_IP: '30' } });
    ws = await listen(t.app);
    admin = await createAdmin(t, { name: 'Ada Admin' });
    jane = await createUser(t, { name: 'Jane Customer' });
    bob = await createUser(t, { name: 'Bob Other' });
    // Products of the demo catalogue: the assistant must quote their database figures.
    const electronics = DEMO_CATALOGUE[0]!.products;
    await createProduct(t, { name: electronics[0]!.name, brand: electronics[0]!.brand, price: electronics[0]!.price, slug: 'nova-x5-smartphone', category: 'Electronics', countInStock: 7, description: electronics[0]!.description });
    await createProduct(t, { name: electronics[4]!.name, brand: electronics[4]!.brand, price: 200, slug: 'pulse-fit-smartwatch', category: 'Electronics', countInStock: 0, isOnSale: true, saleDiscount: 25, description: electronics[4]!.description });
  }, 120_000);
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await t?.close();
  });

  const guestSession = async (name = 'Gail Guest', email = 'gail@example.com') => {
    const res = await t.app.inject({ method: 'POST', url: '/api/chat/guest-session', payload: { name, email } });
    expect(res.statusCode).toBe(200);
    return { body: res.json<{ name: string; guestId: string }>(), cookie: guestCookieOf(res.headers['set-cookie']) };
  };

  it('guest session: server-made guestId in a signed HTTP-only cookie; forged or edited cookies are refused', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/chat/guest-session', payload: { name: 'Gail', email: 'gail@example.com', guestId: 'guest_mine' } });
    expect(res.statusCode).toBe(200);
    const { guestId } = res.json<{ guestId: string }>();
    expect(guestId).toContain('guest');
    expect(guestId).not.toBe('guest_mine');
    expect(String(res.headers['set-cookie'])).toMatch(/HttpOnly/i);
    const cookie = guestCookieOf(res.headers['set-cookie']);
    const verify = await t.app.inject({ method: 'GET', url: '/api/chat/verify-guest', headers: { cookie } });
    expect(verify.json()).toEqual({ success: true, guestId, name: 'Gail', email: 'gail@example.com' });
    const [payload, sig] = cookie.slice('chat_guest='.length).split('.');
    const edited = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), guestId: 'guest_other' })).toString('base64url');
    const forged = await t.app.inject({ method: 'GET', url: '/api/chat/verify-guest', headers: { cookie: `chat_guest=${edited}.${sig}` } });
    expect(forged.json()).toEqual({ success: false });
    // A guest is greeted by name by the AI.
    const history = await t.app.inject({ method: 'GET', url: `/api/chat/guest-history?guestId=${guestId}`, headers: { cookie } });
    expect(history.json<{ messages: Array<{ sender: string; content: string }> }>().messages).toEqual([
      expect.objectContaining({ sender: 'ai', content: expect.stringMatching(/^Hello Gail! .*How can I help you today\?$/) }),
    ]);
    // Only the guest's own session reads its history.
    const other = await guestSession('Olga', 'olga@example.com');
    expect((await t.app.inject({ method: 'GET', url: `/api/chat/guest-history?guestId=${guestId}`, headers: { cookie: other.cookie } })).statusCode).toBe(404);
    const ended = await t.app.inject({ method: 'POST', url: '/api/chat/end-guest-session', headers: { cookie } });
    expect(String(ended.headers['set-cookie'])).toMatch(/chat_guest=;/);
  });

  it('guest form validation uses the spec texts', async () => {
    const bad = await t.app.inject({ method: 'POST', url: '/api/chat/guest-session', payload: { name: '  ', email: 'nope' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toMatchObject({ name: 'Please enter your name', email: 'Please enter a valid email address' });
  });

  it('the socket needs a user or a guest session, and an allowed Origin', async () => {
    await expect(connectChat(ws)).rejects.toThrow('HTTP 401');
    await expect(connectChat(ws, { cookie: jane.cookie, origin: 'https://evil.example' })).rejects.toThrow('HTTP 403');
    const ok = await connect({ cookie: jane.cookie, origin: ws.replace(/^ws/, 'http') });
    await ok.close();
  });

  it('a guest chats with the AI, which answers from the database (price with sale, stock, link; typos)', async () => {
    const g = await guestSession();
    const c = await connect({ cookie: g.cookie });
    const id = c.send('How much is the pulse fit smartwach?');
    const ack = await c.waitFor(isAck(id));
    expect(ack.message).toMatchObject({ sender: 'user', content: 'How much is the pulse fit smartwach?', userId: g.body.guestId, clientId: id });
    const answer = await c.waitFor(isMessage((m) => m.sender === 'ai' && m.clientId === `ai:${ack.message.id}`));
    expect(answer.message.content).toContain('Pulse Fit Smartwatch');
    expect(answer.message.content).toContain('$150.00 (25% OFF, was $200.00)');
    expect(answer.message.content).toContain('out of stock');
    expect(answer.message.content).toContain('/product/pulse-fit-smartwatch');
  });

  it('customer with no administrator online → AI; administrator online → administrators, saved, no AI; reply reaches the customer', async () => {
    const cj = await connect({ cookie: jane.cookie });
    const id1 = cj.send('Do you have the Nova X5 in stock?');
    const ack1 = await cj.waitFor(isAck(id1));
    const ai = await cj.waitFor(isMessage((m) => m.sender === 'ai' && m.clientId === `ai:${ack1.message.id}`));
    expect(ai.message.content).toMatch(/\[Nova X5 Smartphone\]\(\/product\/nova-x5-smartphone\) by Nova: \$699\.00, in stock \(7 available\)/);

    const ca = await connect({ cookie: admin.cookie });
    await cj.waitFor((e) => e.type === 'admin-status' && e.isOnline);
    const online = await ca.waitFor((e) => e.type === 'online-users');
    expect(online.type === 'online-users' && online.users.map((u) => u.id)).toContain(jane.id);
    const id2 = cj.send('Can a person help me?');
    const ack2 = await cj.waitFor(isAck(id2));
    const atAdmin = await ca.waitFor(isMessage((m) => m.id === ack2.message.id));
    expect(atAdmin.message).toMatchObject({ sender: 'user', senderName: 'Jane Customer', userId: jane.id });
    // No assistant reads it, yet the wish for a person marks the conversation (issue 36) until an administrator answers.
    const wants = async () => (await t.database.db.select().from(chatConversations).where(eq(chatConversations.userId, jane.id)))[0]?.wantsPersonAt;
    expect(await wants()).toBeInstanceOf(Date);
    const replyId = ca.send('Hi Jane, I am here.', { recipientId: jane.id });
    const replyAck = await ca.waitFor(isAck(replyId));
    const atJane = await cj.waitFor(isMessage((m) => m.id === replyAck.message.id));
    expect(atJane.message).toMatchObject({ sender: 'admin', recipientId: jane.id, content: 'Hi Jane, I am here.' });
    await t.app.ctx.background.flush();
    expect(await wants()).toBeNull();
    await new Promise((r) => setTimeout(r, 300));
    const stored = await t.database.db.select().from(chatMessages).where(eq(chatMessages.userId, jane.id));
    expect(stored.filter((m) => m.sender === 'ai')).toHaveLength(1); // none for the message the admin got

    // Administrator toggles offline → the AI answers again.
    const toggled = await t.app.inject({ method: 'POST', url: '/api/chat/toggle-admin-status', headers: { cookie: admin.cookie }, payload: { isOnline: false } });
    expect(toggled.json()).toMatchObject({ isOnline: false });
    await cj.waitFor((e) => e.type === 'admin-status' && !e.isOnline);
    expect((await t.app.inject({ method: 'GET', url: '/api/chat/admin-status' })).json()).toEqual({ isOnline: false });
    const id3 = cj.send('what is your return policy');
    const ack3 = await cj.waitFor(isAck(id3));
    const ai3 = await cj.waitFor(isMessage((m) => m.sender === 'ai' && m.clientId === `ai:${ack3.message.id}`));
    expect(ai3.message.content).toContain('within 30 days');
    await t.app.inject({ method: 'POST', url: '/api/chat/toggle-admin-status', headers: { cookie: admin.cookie }, payload: { isOnline: true } });
    const noRecipient = ca.send('to nobody');
    expect((await ca.waitFor((e) => isError(e) && e.clientId === noRecipient)).type).toBe('error');
    await ca.close();
    await cj.close();
    // toggle is for administrators only
    expect((await t.app.inject({ method: 'POST', url: '/api/chat/toggle-admin-status', headers: { cookie: jane.cookie }, payload: {} })).statusCode).toBe(403);
  });

  it('reads are owner-only: another customer gets 404, an administrator gets the messages', async () => {
    await t.app.inject({ method: 'POST', url: '/api/chat/save', headers: { cookie: jane.cookie }, payload: { message: { content: 'Saved over REST', clientId: 'rest-1' } } });
    expect((await t.app.inject({ method: 'GET', url: `/api/chat/user-messages/${jane.id}`, headers: { cookie: bob.cookie } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/chat/user-messages/${jane.id}` })).statusCode).toBe(401);
    const own = await t.app.inject({ method: 'GET', url: `/api/chat/user-messages/${jane.id}`, headers: { cookie: jane.cookie } });
    expect(own.json<{ messages: Array<{ content: string }> }>().messages.map((m) => m.content)).toContain('Saved over REST');
    const byAdmin = await t.app.inject({ method: 'GET', url: `/api/chat/user-messages/${jane.id}`, headers: { cookie: admin.cookie } });
    expect(byAdmin.statusCode).toBe(200);
    const history = await t.app.inject({ method: 'GET', url: '/api/chat/history', headers: { cookie: jane.cookie } });
    expect(history.json<Array<{ userId: string }>>()[0]!.userId).toBe(jane.id);
    expect((await t.app.inject({ method: 'GET', url: '/api/chat/history', headers: { cookie: bob.cookie } })).json()).toEqual([]);
  });

  it('a resend after a dropped connection is stored once; messages missed are fetched after the last id', async () => {
    const c1 = await connect({ cookie: bob.cookie });
    const first = c1.send('first message about gifts');
    const ack = await c1.waitFor(isAck(first));
    await c1.waitFor(isMessage((m) => m.clientId === `ai:${ack.message.id}`));
    const lastSeen = (await t.app.inject({ method: 'GET', url: '/api/chat/history', headers: { cookie: bob.cookie } })).json<Array<{ messages: Array<{ id: string }> }>>()[0]!.messages.at(-1)!.id;
    // Send, then kill the socket before the ack can be read.
    const lost = c1.send('second message, connection drops');
    c1.ws.terminate();
    await c1.closed;
    const c2 = await connect({ cookie: bob.cookie });
    c2.send('second message, connection drops', { clientId: lost }); // the client resends what was not acknowledged
    const resent = await c2.waitFor(isAck(lost));
    await new Promise((r) => setTimeout(r, 300));
    const rows = await t.database.db.select().from(chatMessages).where(eq(chatMessages.clientId, lost));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toBe(resent.message.id);
    const missed = await t.app.inject({ method: 'GET', url: `/api/chat/history?after=${lastSeen}`, headers: { cookie: bob.cookie } });
    const ids = missed.json<Array<{ messages: Array<{ id: string; content: string }> }>>()[0]!.messages.map((m) => m.id);
    expect(ids).not.toContain(lastSeen);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain(resent.message.id);
    // Exactly one AI answer for the resent message.
    const answers = await t.database.db.select().from(chatMessages).where(eq(chatMessages.clientId, `ai:${resent.message.id}`));
    expect(answers).toHaveLength(1);
    await c2.close();
  });

  it('signing in ends the guest chat: cookie cleared, guest socket closed, the old cookie refused; the socket then speaks as the account', async () => {
    const customer = await createUser(t, { name: 'Sam Signin' });
    const { body, cookie } = await guestSession('Sam Guest', 'sam-guest@example.com');
    const guestSocket = await connect({ cookie });
    const signIn = await t.app.inject({ method: 'POST', url: '/api/users/signin', headers: { cookie }, payload: { email: customer.email, password: customer.password } });
    expect(signIn.statusCode).toBe(200);
    const setCookies = ([] as string[]).concat(signIn.headers['set-cookie'] ?? []);
    expect(setCookies.find((c) => c.startsWith('chat_guest='))).toMatch(/^chat_guest=;.*(Expires=Thu, 01 Jan 1970|Max-Age=0)/i);
    expect((await guestSocket.closed).code).toBe(4401);
    // The guest cookie, kept by someone, no longer opens anything.
    expect((await t.app.inject({ method: 'GET', url: '/api/chat/verify-guest', headers: { cookie } })).json()).toEqual({ success: false });
    expect((await t.app.inject({ method: 'GET', url: `/api/chat/guest-history?guestId=${body.guestId}`, headers: { cookie } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/api/chat/save', headers: { cookie }, payload: { message: { content: 'still here?' } } })).statusCode).toBe(401);
    await expect(connectChat(ws, { cookie })).rejects.toThrow('HTTP 401');
    // The browser now holds the account's cookies (and, in a real browser, no guest cookie): it chats as the customer.
    const access = setCookies.find((c) => c.startsWith('access_token='))!.split(';')[0]!;
    const asCustomer = await connect({ cookie: access });
    const hello = await asCustomer.waitFor((e) => e.type === 'hello');
    expect(hello).toMatchObject({ user: { id: customer.id, isGuest: false } });
    // Ending a guest session by hand works the same way.
    const second = await guestSession('Other Guest', 'other-guest@example.com');
    const s2 = await connect({ cookie: second.cookie });
    const end = await t.app.inject({ method: 'POST', url: '/api/chat/end-guest-session', headers: { cookie: second.cookie } });
    expect(end.statusCode).toBe(200);
    expect((await s2.closed).code).toBe(4401);
    expect((await t.app.inject({ method: 'GET', url: '/api/chat/verify-guest', headers: { cookie: second.cookie } })).json()).toEqual({ success: false });
  });

  it('limits: empty ignored, too long refused, per-sender rate limit, sockets per IP', async () => {
    const limited = await createTestApp({ env: { CHAT_MESSAGES_PER_MINUTE: '3', CHAT_SOCKETS_PER_IP: '2', CHAT_MAX_MESSAGE_LENGTH: '50' } });
    try {
      const url = await listen(limited.app);
      const u = await createUser(limited);
      const a = await connectChat(url, { cookie: u.cookie });
      const empty = a.send('   ');
      const long = a.send('x'.repeat(51));
      expect(await a.waitFor((e) => isError(e) && e.clientId === long)).toMatchObject({ message: 'Message is too long (at most 50 characters)' });
      expect(a.events.some((e) => (e.type === 'ack' && e.clientId === empty) || (e.type === 'error' && e.clientId === empty))).toBe(false);
      const ids = [a.send('one'), a.send('two'), a.send('three'), a.send('four')];
      expect(await a.waitFor((e) => isError(e) && e.clientId === ids[3])).toMatchObject({ message: 'Too many messages. Please wait a moment and try again.' });
      for (const id of ids.slice(0, 3)) await a.waitFor(isAck(id));
      const rest = await limited.app.inject({ method: 'POST', url: '/api/chat/save', headers: { cookie: u.cookie }, payload: { message: { content: 'five' } } });
      expect(rest.statusCode).toBe(429);
      const b = await connectChat(url, { cookie: u.cookie });
      const c = await connectChat(url, { cookie: u.cookie });
      expect((await c.closed).code).toBe(4429);
      const stored = await limited.database.db.select().from(chatMessages).where(eq(chatMessages.userId, u.id));
      expect(stored.filter((m) => m.sender === 'user').map((m) => m.content).sort()).toEqual(['one', 'three', 'two']);
      await a.close();
      await b.close();
    } finally {
      await limited.close();
    }
  }, 90_000);

  it('administrators: all-history hides administrators\' own chats, is searchable and paged; chat/:id', async () => {
    await t.app.inject({ method: 'POST', url: '/api/chat/save', headers: { cookie: admin.cookie }, payload: { message: { content: 'note to self', recipientId: jane.id } } });
    const all = await t.app.inject({ method: 'GET', url: '/api/chat/all-history', headers: { cookie: admin.cookie } });
    const body = all.json<{ chats: Array<{ _id: string; userId: string; messages: unknown[] }>; pages: number }>();
    expect(body.chats.map((c) => c.userId)).toContain(jane.id);
    expect(body.chats.every((c) => c.userId !== admin.id)).toBe(true);
    const searched = await t.app.inject({ method: 'GET', url: '/api/chat/all-history?search=bob', headers: { cookie: admin.cookie } });
    expect(searched.json<{ chats: Array<{ userId: string }> }>().chats.map((c) => c.userId)).toEqual([bob.id]);
    const janeChat = body.chats.find((c) => c.userId === jane.id)!;
    const detail = await t.app.inject({ method: 'GET', url: `/api/chat/chat/${janeChat._id}`, headers: { cookie: admin.cookie } });
    expect(detail.json<{ messages: unknown[] }>().messages.length).toBeGreaterThan(3);
    const missing = await t.app.inject({ method: 'GET', url: '/api/chat/chat/000000000000000000000000', headers: { cookie: admin.cookie } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Chat not found');
    expect((await t.app.inject({ method: 'GET', url: '/api/chat/all-history', headers: { cookie: jane.cookie } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/chat/all-history?page=0', headers: { cookie: admin.cookie } })).statusCode).toBe(400);
  });

  it('administrators: unread messages per conversation; reading (never backwards) and answering mark them read', async () => {
    const carl = await createUser(t, { name: 'Carl Unread' });
    type History = { chats: Array<{ _id: string; userId: string; unread?: number }>; unreadConversations: number };
    const history = async (search = '') => {
      const res = await t.app.inject({ method: 'GET', url: `/api/chat/all-history${search ? `?search=${encodeURIComponent(search)}` : ''}`, headers: { cookie: admin.cookie } });
      expect(res.statusCode).toBe(200);
      return res.json<History>();
    };
    const say = async (content: string) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/chat/save', headers: { cookie: carl.cookie }, payload: { message: { content, clientId: `unread-${content}` } } });
      expect(res.statusCode).toBe(201);
      return res.json<{ message: { id: string } }>().message.id;
    };
    const read = (chatId: string, payload: unknown) =>
      t.app.inject({ method: 'POST', url: `/api/chat/chat/${chatId}/read`, headers: { cookie: admin.cookie }, payload: payload as Record<string, unknown> });

    const before = (await history()).unreadConversations;
    const first = await say('first question');
    const second = await say('second question');
    const listed = (await history(carl.email)).chats;
    expect(listed.map((c) => [c.userId, c.unread])).toEqual([[carl.id, 2]]);
    const chatId = listed[0]!._id;
    expect((await history()).unreadConversations).toBe(before + 1);

    // Seen up to the first message: the second stays unread.
    const r1 = await read(chatId, { messageId: first });
    expect(r1.statusCode).toBe(200);
    expect(r1.json()).toEqual({ unread: 1 });
    const r2 = await read(chatId, { messageId: second });
    expect(r2.json()).toEqual({ unread: 0 });
    // A late mark from an older screen does not bring anything back.
    expect((await read(chatId, { messageId: first })).json()).toEqual({ unread: 0 });
    expect((await history(carl.email)).chats[0]!.unread).toBe(0);
    expect((await history()).unreadConversations).toBe(before);

    // A new message is unread until an administrator answers it.
    await say('third question');
    expect((await history(carl.email)).chats[0]!.unread).toBe(1);
    expect((await history()).unreadConversations).toBe(before + 1);
    const answer = await t.app.inject({ method: 'POST', url: '/api/chat/save', headers: { cookie: admin.cookie }, payload: { message: { content: 'Answered', clientId: 'unread-answer', recipientId: carl.id } } });
    expect(answer.statusCode).toBe(201);
    expect((await history(carl.email)).chats[0]!.unread).toBe(0);
    expect((await history()).unreadConversations).toBe(before);

    // Bad input changes nothing.
    await say('fourth question');
    const janeMessage = (await t.app.inject({ method: 'GET', url: `/api/chat/user-messages/${jane.id}`, headers: { cookie: admin.cookie } })).json<{ messages: Array<{ id: string }> }>().messages[0]!.id;
    const foreign = await read(chatId, { messageId: janeMessage });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ message: 'That message is not part of this chat', fieldErrors: { messageId: 'That message is not part of this chat' } });
    const missingBody = await read(chatId, {});
    expect(missingBody.statusCode).toBe(400);
    expect(missingBody.json().fieldErrors).toMatchObject({ messageId: 'messageId is required' });
    for (const id of ['000000000000000000000000', 'not-an-id']) {
      const missing = await read(id, { messageId: first });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().message).toBe('Chat not found');
    }
    expect((await history(carl.email)).chats[0]!.unread).toBe(1);
    const customer = await t.app.inject({ method: 'POST', url: `/api/chat/chat/${chatId}/read`, headers: { cookie: carl.cookie }, payload: { messageId: first } });
    expect(customer.statusCode).toBe(403);
    expect((await history(carl.email)).chats[0]!.unread).toBe(1);
  });

  it('leads: chatting makes a lead with products of interest and rising interest; administrator status and notes stay', async () => {
    const g = await guestSession('Lena Lead', 'lena@example.com');
    const c = await connect({ cookie: g.cookie });
    const id = c.send('what is the price of the Nova X5 smartphone?');
    const ack = await c.waitFor(isAck(id));
    await c.waitFor(isMessage((m) => m.clientId === `ai:${ack.message.id}`));
    await t.app.ctx.jobs.runDue(); // the lead updates are jobs
    const leadOf = async () => (await t.database.db.select().from(leads).where(eq(leads.userId, g.body.guestId)))[0]!;
    expect(await leadOf()).toMatchObject({ userName: 'Lena Lead', userEmail: 'lena@example.com', interestLevel: 'medium', status: 'new' });
    expect((await leadOf()).productsOfInterest.map((p) => p.name)).toEqual(['Nova X5 Smartphone']);
    await t.database.db.update(leads).set({ status: 'contacted', notes: 'Called her' }).where(eq(leads.userId, g.body.guestId));
    const id2 = c.send('I want to buy the pulse fit smartwatch');
    const ack2 = await c.waitFor(isAck(id2));
    await c.waitFor(isMessage((m) => m.clientId === `ai:${ack2.message.id}`));
    await t.app.ctx.jobs.runDue(); // the lead updates are jobs
    expect(await leadOf()).toMatchObject({ status: 'contacted', notes: 'Called her', interestLevel: 'high' });
    expect((await leadOf()).productsOfInterest.map((p) => p.name)).toEqual(['Pulse Fit Smartwatch', 'Nova X5 Smartphone']);
  });

  it('ai-response answers the caller and validates input', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/chat/ai-response', headers: { cookie: jane.cookie }, payload: { message: 'where is my order', userId: 'someone-else' } });
    expect(res.json()).toEqual({ response: "You don't have any orders yet. When you place one, I can tell you its status here." });
    expect((await t.app.inject({ method: 'POST', url: '/api/chat/ai-response', headers: { cookie: jane.cookie }, payload: { message: '  ' } })).json().message).toBe('Message is required');
    expect((await t.app.inject({ method: 'POST', url: '/api/chat/ai-response', payload: { message: 'hi' } })).statusCode).toBe(401);
  });

  it('draining closes chat sockets with 1012 so clients reconnect elsewhere', async () => {
    const c = await connect({ cookie: jane.cookie });
    for (const hook of t.app.ctx.onDrain) await hook();
    expect((await c.closed).code).toBe(CHAT_CLOSE_SERVICE_RESTART);
  });
});
