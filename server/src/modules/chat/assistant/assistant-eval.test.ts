import type { ChatSummary, Lead } from '@shop/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatResult, prepareEval } from '../../../../../bench/assistant-eval/harness.ts';
import { QUESTIONS, intentsOf } from '../../../../../bench/assistant-eval/questions.ts';
import { leads } from '../../../db/schema.ts';
import { seedDatabase } from '../../../db/seed/index.ts';
import { createAdmin, createTestApp, type TestApp } from '../../../test/test-app.ts';
import { guestCookieOf } from '../chat.test-helpers.ts';

/**
 * The representative subset of the assistant's evaluation (bench/assistant-eval.ts runs all of it):
 * one or two questions per intent over the demo catalogue, through POST chat/ai-response, each
 * answer checked against facts computed from the seeded catalogue. No timing is asserted.
 */
describe('the assistant understands the question, not the keyword (issue 36)', () => {
  let t: TestApp;
  let evaluation: Awaited<ReturnType<typeof prepareEval>>;
  beforeAll(async () => {
    t = await createTestApp({ env: { SEED_DEMO_DATA: 'true', CHAT_AI_REQUESTS_PER_MINUTE: '10000' } });
    await seedDatabase(t.database.db, t.config, t.app.log);
    evaluation = await prepareEval(t.app, t.database.db, t.config);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  const subset = QUESTIONS.filter((q) => q.subset);

  it('keeps at least 60 questions, and a subset covering every intent', () => {
    expect(QUESTIONS.length).toBeGreaterThanOrEqual(60);
    expect(new Set(QUESTIONS.map((q) => q.id)).size).toBe(QUESTIONS.length);
    expect(intentsOf(subset).sort()).toEqual(intentsOf(QUESTIONS).sort());
    expect(subset.length).toBeGreaterThanOrEqual(15);
  });

  it(`answers the ${subset.length} questions of the subset with every fact computed from the catalogue`, async () => {
    const results = await evaluation.run(subset);
    expect(results.filter((r) => r.failed.length).map((r) => formatResult(r))).toEqual([]);
  }, 120_000);

  it("the facts refuse the answers the issue found wrong (a test that cannot fail is a defect)", async () => {
    const c = evaluation.catalogue;
    const ctx = { wantsPerson: async () => false };
    const wrong: Array<[id: string, answer: string]> = [
      ['budget-laptop-1000', 'I found this product:\n- Zenbook Air 14 Laptop by Zentek: $1149.00, in stock.'],
      ['cheapest-smartphone', 'I found 2 products:\n- Nova X5 Smartphone by Nova: $699.00\n- Nova Lite Smartphone by Nova: $246.75'],
      ['compare-difference', 'I found 2 products:\n- Buds Pro Earbuds by SoundMax: $119.00\n- Buds Sport Earbuds by Stride: $69.00'],
      ['compare-difference', 'Comparing the two:\n- Buds Pro Earbuds: $119.00, rated 0.0 of 5 (0 reviews).\n- Buds Sport Earbuds: $69.00, rated 2.3 of 5.\nBuds Sport Earbuds is cheaper. Buds Pro Earbuds is rated higher (2.3 of 5).'],
      ['faq-gift-wrap', 'To check an order, please sign in: then I can tell you the status of your own orders.'],
      ['ship-canada', 'Shipping is free on every order. Orders are usually dispatched within 1-2 business days and arrive within 3-7 business days.'],
      ['handoff-insult', 'I can help with our products, your orders, shipping, returns and payment.'],
      ['product-price-link', 'Nova X5 Smartphone by Nova: $699.00, in stock. See it at /product/nova-x5-smartphone'],
      ['off-topic-capital', 'The capital of France is Paris.'],
    ];
    for (const [id, answer] of wrong) {
      const q = QUESTIONS.find((x) => x.id === id)!;
      const facts = await q.facts(c);
      const held = await Promise.all(facts.map((f) => f.holds(answer, ctx)));
      expect(held.some((h) => !h), `${id} accepted: ${answer}`).toBe(true);
    }
  });

  it('a hand-off marks the conversation and the lead for the back office; an administrator\'s reply and a status change clear them', async () => {
    const admin = await createAdmin(t, { name: 'Ada Admin' });
    const session = await t.app.inject({ method: 'POST', url: '/api/chat/guest-session', payload: { name: 'Ursula', email: 'ursula@example.com' }, remoteAddress: '10.99.0.1' });
    const cookie = guestCookieOf(session.headers['set-cookie']);
    const { guestId } = session.json<{ guestId: string }>();
    const asked = await t.app.inject({ method: 'POST', url: '/api/chat/ai-response', headers: { cookie }, payload: { message: 'This is useless. I want to talk to a person!' }, remoteAddress: '10.99.0.1' });
    expect(asked.statusCode).toBe(200);
    expect(asked.json<{ response: string }>().response).toMatch(/^I'm sorry/);
    await t.app.ctx.background.flush();
    await t.app.ctx.jobs.runDue(); // the lead's mark is written by the lead-activity job

    const chats = await t.app.inject({ method: 'GET', url: '/api/chat/all-history?search=ursula', headers: { cookie: admin.cookie } });
    const [chat] = chats.json<{ chats: ChatSummary[] }>().chats;
    expect(chat?.wantsPersonAt).toEqual(expect.any(String));
    const listed = await t.app.inject({ method: 'GET', url: '/api/chat/leads?search=ursula', headers: { cookie: admin.cookie } });
    const [lead] = listed.json<{ leads: Lead[] }>().leads;
    expect(lead).toMatchObject({ userId: guestId, wantsPersonAt: expect.any(String) });

    // The administrator answers in the chat: neither waits for a person any more.
    const reply = await t.app.inject({ method: 'POST', url: '/api/chat/save', headers: { cookie: admin.cookie }, payload: { message: { content: 'Hello Ursula, Ada here. How can I help?', userId: guestId } } });
    expect(reply.statusCode).toBe(201);
    await t.app.ctx.background.flush();
    const after = await t.app.inject({ method: 'GET', url: '/api/chat/all-history?search=ursula', headers: { cookie: admin.cookie } });
    expect(after.json<{ chats: ChatSummary[] }>().chats[0]?.wantsPersonAt).toBeNull();
    const [cleared] = await t.database.db.select().from(leads).where(eq(leads.userId, guestId));
    expect(cleared?.wantsPersonAt).toBeNull();

    // Asked again, then the lead's status changes: its mark clears; saving it with the same status keeps it.
    await t.app.inject({ method: 'POST', url: '/api/chat/ai-response', headers: { cookie }, payload: { message: 'agent please' }, remoteAddress: '10.99.0.1' });
    await t.app.ctx.background.flush();
    await t.app.ctx.jobs.runDue();
    const same = await t.app.inject({ method: 'PUT', url: `/api/chat/leads/${lead!._id}`, headers: { cookie: admin.cookie }, payload: { status: 'new', notes: 'called back' } });
    expect(same.statusCode).toBe(200);
    const [kept] = await t.database.db.select().from(leads).where(eq(leads.userId, guestId));
    expect(kept?.wantsPersonAt).toBeInstanceOf(Date);
    const changed = await t.app.inject({ method: 'PUT', url: `/api/chat/leads/${lead!._id}`, headers: { cookie: admin.cookie }, payload: { status: 'contacted' } });
    expect(changed.statusCode).toBe(200);
    const [done] = await t.database.db.select().from(leads).where(eq(leads.userId, guestId));
    expect(done?.wantsPersonAt).toBeNull();
  });
});
