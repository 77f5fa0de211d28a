import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../../test/commerce-factories.ts';
import { startLlmMock, type LlmMock } from '../../test/llm-mock.ts';
import { createTestApp, createUser, type TestApp, type TestUser } from '../../test/test-app.ts';

describe('chat: the model path (OpenAI-compatible chat completions with tools) and its fall-back', () => {
  let llm: LlmMock;
  let t: TestApp;
  let jane: TestUser;
  const ask = async (message: string) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/chat/ai-response', headers: { cookie: jane.cookie }, payload: { message } });
    expect(res.statusCode).toBe(200);
    return res.json<{ response: string }>().response;
  };

  beforeAll(async () => {
    llm = await startLlmMock();
    t = await createTestApp({ env: { LLM_BASE_URL: llm.url, LLM_API_KEY: 'sk-test-key', LLM_MODEL: 'test-model', LLM_TIMEOUT_MS: '2500' } });
    jane = await createUser(t, { name: 'Jane' });
    await createProduct(t, { name: 'Nova X5 Smartphone', brand: 'Nova', price: 699, slug: 'nova-x5', countInStock: 7 });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await llm?.close();
  });

  it('runs the tool calls against the database and returns the model\'s final answer', async () => {
    llm.respond = (req, i) => {
      if (i === 0) {
        return { message: { role: 'assistant', content: null, tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'search_products', arguments: JSON.stringify({ query: 'nova smartphone' }) } },
          { id: 'call_2', type: 'function', function: { name: 'get_my_orders', arguments: '{}' } },
        ] } };
      }
      const toolResult = req.body.messages.find((m) => m.role === 'tool' && m.tool_call_id === 'call_1')!.content!;
      const product = (JSON.parse(toolResult) as Array<{ name: string; price: string; stock: string }>)[0]!;
      return { message: { role: 'assistant', content: `The ${product.name} costs ${product.price} and is ${product.stock}.` } };
    };
    expect(await ask('how much is the nova phone?')).toBe('The Nova X5 Smartphone costs $699.00 and is in stock (7 available).');
    const [first, second] = llm.requests;
    expect(first!.headers.authorization).toBe('Bearer sk-test-key');
    expect(first!.body.model).toBe('test-model');
    expect(first!.body.tools!.map((x) => x.function.name)).toEqual(['search_products', 'get_product', 'compare_products', 'shipping_to', 'get_my_orders', 'faq']);
    expect(first!.body.messages.at(-1)).toEqual({ role: 'user', content: 'how much is the nova phone?' });
    const orders = second!.body.messages.find((m) => m.tool_call_id === 'call_2')!.content!;
    expect(JSON.parse(orders)).toEqual([]);
  });

  it("the model's tools answer budgets, superlatives, comparisons and shipping from the database; a hand-off is the shop's own", async () => {
    await createProduct(t, { name: 'Nova Lite Smartphone', brand: 'Nova', price: 329, slug: 'nova-lite', countInStock: 5 });
    llm.requests.length = 0;
    llm.respond = (req, i) => {
      if (i === 0) {
        return { message: { role: 'assistant', content: null, tool_calls: [
          { id: 's', type: 'function', function: { name: 'search_products', arguments: JSON.stringify({ query: 'smartphone', max_price: 500, sort: 'cheapest' }) } },
          { id: 'c', type: 'function', function: { name: 'compare_products', arguments: JSON.stringify({ first: 'Nova X5', second: 'Nova Lite' }) } },
          { id: 'p', type: 'function', function: { name: 'shipping_to', arguments: JSON.stringify({ country: 'Deutschland' }) } },
        ] } };
      }
      const tool = (id: string) => JSON.parse(req.body.messages.find((m) => m.tool_call_id === id)!.content!) as unknown;
      return { message: { role: 'assistant', content: JSON.stringify({ s: tool('s'), c: tool('c'), p: tool('p') }) } };
    };
    const answer = JSON.parse(await ask('cheapest smartphone under $500? how is it against the X5? shipping to Germany?')) as {
      s: Array<{ name: string; price: string; markdownLink: string }>; c: { comparison: string }; p: { country: string; price: number; deliveryDays: string };
    };
    expect(answer.s.map((p) => [p.name, p.price, p.markdownLink])).toEqual([['Nova Lite Smartphone', '$329.00', '[Nova Lite Smartphone](/product/nova-lite)']]);
    expect(answer.c.comparison).toContain('Price: Nova Lite Smartphone is cheaper, by $370.00.');
    expect(answer.c.comparison).toContain('Reviews: neither has reviews yet.');
    expect(answer.p).toMatchObject({ country: 'Germany', price: 0, deliveryDays: '3–7' });
    expect(llm.requests[0]!.body.messages[0]!.content).toContain('no reviews yet');

    // Asking for a person (or being upset) is answered by the shop itself, and never sent to the model.
    llm.requests.length = 0;
    expect(await ask('you are useless, I want to talk to a human')).toMatch(/^I'm sorry, .*administrator will reply in this chat/);
    expect(llm.requests).toHaveLength(0);
  });

  it('falls back to the built-in assistant when the model errors', async () => {
    llm.requests.length = 0;
    llm.respond = () => ({ status: 500, raw: '{"error":{"message":"boom"}}' });
    expect(await ask('how much is the nova x5 smartphone')).toContain('[Nova X5 Smartphone](/product/nova-x5) by Nova: $699.00, in stock (7 available)');
    expect(llm.requests).toHaveLength(1);
  });

  it('falls back to the built-in assistant when the model is too slow (LLM_TIMEOUT_MS)', async () => {
    llm.respond = () => ({ delayMs: 6000, message: { role: 'assistant', content: 'too late' } });
    const started = Date.now();
    expect(await ask('what is your return policy?')).toContain('within 30 days');
    expect(Date.now() - started).toBeLessThan(5500);
  });

  it('falls back on a malformed answer (no choices)', async () => {
    llm.respond = () => ({ raw: '{"choices":[]}' });
    expect(await ask('which payment methods do you accept?')).toContain('PayPal');
  });
});
