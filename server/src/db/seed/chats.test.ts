import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatSummaryParsed } from '@shop/contracts';
import { createAdmin, createTestApp, createUser, type TestApp, type TestUser } from '../../test/test-app.ts';
import { seedBackoffice } from './backoffice.ts';
import { seedCatalogue } from './catalogue.ts';
import { seedChats } from './chats.ts';

describe('demo chat conversations seed', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    await createUser(t, { name: 'Jane Doe' });
    admin = await createAdmin(t);
    await seedCatalogue(t.database.db);
    await seedBackoffice(t.database.db);
  }, 120_000);
  afterAll(async () => { await t.close(); });

  it('gives the demo guest leads a conversation with the built-in assistant, answered from the catalogue, once', async () => {
    const first = await seedChats(t.database.db);
    expect(first.conversations).toBe(5);
    expect(first.messages).toBe(15);
    expect(await seedChats(t.database.db)).toEqual({ conversations: 0, messages: 0 });

    const res = await t.app.inject({ method: 'GET', url: '/api/chat/all-history', headers: { cookie: admin.cookie } });
    expect(res.statusCode).toBe(200);
    const { chats, total } = res.json<{ chats: ChatSummaryParsed[]; total: number }>();
    expect(total).toBe(5);
    const olivia = chats.find((c) => c.userId === 'guest_demo_olivia')!;
    expect(olivia).toMatchObject({ userName: 'Olivia Guest', isGuest: true, messageCount: 3 });
    const full = (await t.app.inject({ method: 'GET', url: `/api/chat/chat/${olivia._id}`, headers: { cookie: admin.cookie } })).json<ChatSummaryParsed>();
    const [welcome, question, answer] = [...full.messages].sort((a, b) => a.timestamp.localeCompare(b.timestamp));
    expect(welcome).toMatchObject({ sender: 'ai', content: expect.stringMatching(/^Hello Olivia Guest!/) });
    expect(question).toMatchObject({ sender: 'user', content: expect.stringMatching(/^How much is the .+\?$/) });
    // The answer names the product with its price from the database, and links to its page.
    const productName = question!.content.replace(/^How much is the (.+)\?$/, '$1');
    expect(answer).toMatchObject({ sender: 'ai', content: expect.stringContaining(productName) });
    expect(answer!.content).toMatch(/\$\d+\.\d\d/);
    expect(answer!.content).toContain('/product/');
    // The list shows each conversation's last message: Liam's is the FAQ's shipping answer.
    const liam = chats.find((c) => c.userId === 'guest_demo_liam')!;
    expect(liam.messages.at(-1)).toMatchObject({ sender: 'ai', content: expect.stringMatching(/ship|deliver/i) });
  });
});
