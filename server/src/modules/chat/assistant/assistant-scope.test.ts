import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leads } from '../../../db/schema.ts';
import { seedCatalogue } from '../../../db/seed/catalogue.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { productsOfInterestIn } from '../chat-leads.ts';
import { connectChat, guestCookieOf, isMessage, listen, type TestChatClient } from '../chat.test-helpers.ts';
import { createAssistant } from './answer.ts';
import { answerBuiltIn, type AskingUser } from './built-in-assistant.ts';
import { OUT_OF_SCOPE, termNames } from './relevance.ts';
import { createShopTools, type ShopTools } from './shop-tools.ts';

const guest: AskingUser = { id: 'guest_scope', name: 'Gail', isGuest: true, isSignedIn: false };

/** Questions outside the shop: each gets exactly the scope sentence and no product. */
const OFF_TOPIC = [
  'What is the capital of France?',
  "What's the weather like in London today?",
  'Will it rain tomorrow?',
  'What is 17 times 23?',
  'What is 2 + 2?',
  'Can you solve x squared plus 2x equals 8?',
  'Tell me a joke',
  'Who is the president of the United States?',
  'How do I fix a flat tyre on my bike?',
  'Write me a poem about the sea',
  'What is the meaning of life?',
  'Translate good morning into Spanish',
  'How tall is Mount Everest?',
  'What time is it in Tokyo?',
  'Explain quantum physics to me',
  "What's the best recipe for lasagna?",
  'Who wrote Hamlet?',
  'Recommend a good movie to watch tonight',
  'What is the population of Brazil?',
  'Who painted the Mona Lisa?',
  'How old is the universe?',
  "What's the square root of 144?",
  'Give me directions to the airport',
  'Who won the election?',
];

/** Questions about the shop: answered with a product, a policy, orders or a greeting, never the scope sentence. */
const ON_TOPIC: Array<[question: string, expected: RegExp]> = [
  ['How much are the Aurora Wireless Headphones?', /Aurora Wireless Headphones/],
  ['Do you have wireless headphones?', /Aurora Wireless Headphones/],
  ['Is the Nova X5 Smartphone in stock?', /Nova X5 Smartphone/],
  ['Do you sell teddy bears?', /Cuddly Teddy Bear/],
  ["I'm looking for a laptop", /Laptop/],
  ['any hedphones?', /Headphones/],
  ['Price of the Monstera house plant', /Monstera House Plant/],
  ['Do you have a cookbook?', /Everyday Cooking Cookbook/],
  ['Show me sunglasses', /Sunglasses/],
  ['Do you have puzzles?', /Speed Puzzle Cube/],
  ['What do you have from SoundMax?', /SoundMax/],
  ['Do you sell any fragrance?', /Citrus Eau de Parfum/],
  ['I need a gift for my mum, she loves gardening', /Plant|Garden|Watering/],
  ['Compare Aurora Studio Headphones and Buds Pro Earbuds', /Comparing the two/],
  ['Do you have anything for coffee?', /Mug|Kettle|Cups/],
  ['How long does shipping take?', /Shipping is free/],
  ['Can I return an item?', /return any item within 30 days/],
  ['Which payment methods do you accept?', /PayPal/],
  ['Where is my order?', /sign in/],
  ['Can I talk to a human?', /./],
  ['Hello', /How can I help you today\?/],
  ['Do you sell cars?', /couldn't find a product/],
  ['headphones under 200 dollars', /Headphones/],
  ['a blue shirt for my dad', /Shirt/],
  ['cheap earbuds', /Earbuds/],
  ['red sneakers size 42', /Sneakers/],
  ['Nova X5', /Nova X5 Smartphone/],
];

describe('the assistant keeps to the shop (issue 19)', () => {
  let t: TestApp;
  let tools: ShopTools;
  let ws: string;
  const clients: TestChatClient[] = [];
  beforeAll(async () => {
    t = await createTestApp({ env: { CHAT_MESSAGES_PER_MINUTE: '200', CHAT_IP_MESSAGES_PER_MINUTE: '1000' } });
    await seedCatalogue(t.database.db);
    tools = createShopTools(t.database.db);
    ws = await listen(t.app);
  }, 120_000);
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await t?.close();
  });

  /** A guest's conversation over the socket, each message answered by the assistant before the next. */
  async function guestConversation(name: string, lines: string[]) {
    const res = await t.app.inject({ method: 'POST', url: '/api/chat/guest-session', payload: { name, email: `${name.toLowerCase()}@example.com` } });
    const { guestId } = res.json<{ guestId: string }>();
    const c = await connectChat(ws, { cookie: guestCookieOf(res.headers['set-cookie']) });
    clients.push(c);
    const answers: string[] = [];
    for (const line of lines) {
      const clientId = c.send(line);
      const answer = await c.waitFor(isMessage((m) => m.sender === 'ai' && m.clientId?.startsWith('ai:') === true && m.content !== '' && !answers.includes(m.id)), 15_000);
      answers.push(answer.message.id);
      void clientId;
    }
    await t.app.ctx.jobs.runDue(); // the lead updates are jobs
    const [lead] = await t.database.db.select().from(leads).where(eq(leads.userId, guestId));
    return lead;
  }

  it(`answers ${OFF_TOPIC.length} off-topic questions with the plain scope sentence and no product`, async () => {
    const wrong: string[] = [];
    for (const q of OFF_TOPIC) {
      const a = await answerBuiltIn(tools, guest, q);
      if (a.text !== OUT_OF_SCOPE || a.products.length) wrong.push(`${q} → ${a.text.slice(0, 80)} ${JSON.stringify(a.products)}`);
    }
    expect(wrong).toEqual([]);
    expect(OUT_OF_SCOPE).toBe('I can help with our products, your orders, shipping, returns and payment.');
  });

  it(`answers ${ON_TOPIC.length} shop questions from the shop, never with the scope sentence alone`, async () => {
    const wrong: string[] = [];
    for (const [q, expected] of ON_TOPIC) {
      const a = await answerBuiltIn(tools, guest, q);
      if (a.text === OUT_OF_SCOPE || !expected.test(a.text)) wrong.push(`${q} → ${a.text.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('a product answer names its products for the lead; a policy answer names none', async () => {
    const product = await answerBuiltIn(tools, guest, 'How much is the Pulse Fit Smartwatch?');
    expect(product.products.map((p) => p.name)).toEqual(['Pulse Fit Smartwatch']);
    const policy = await answerBuiltIn(tools, guest, 'How long does shipping take?');
    expect(policy.products).toEqual([]);
    const offTopic = await answerBuiltIn(tools, guest, 'What is the capital of France?');
    expect(offTopic.products).toEqual([]);
  });

  it('names a catalogue word by the word itself, its plural or a typo, not by a distant word', () => {
    expect(termNames('bears', 'bear')).toBe(true);
    expect(termNames('cup', 'cups')).toBe(true);
    expect(termNames('hedphones', 'headphones')).toBe(true);
    expect(termNames('smartwach', 'smartwatch')).toBe(true);
    expect(termNames('weather', 'leather')).toBe(false);
    expect(termNames('tonight', 'night')).toBe(false);
    expect(termNames('life', 'lite')).toBe(false);
    expect(termNames('capital', 'ceramic')).toBe(false);
    expect(termNames('france', 'frame')).toBe(false);
    expect(termNames('pen', 'pot')).toBe(false);
    expect(termNames('of', 'of')).toBe(false);
  });

  it("a conversation that names no product leaves the lead's products of interest empty", async () => {
    const lead = await guestConversation('Nora', [
      'What is the capital of France?',
      'Translate good morning into Spanish',
      'How long does shipping take?',
      'Can I return an item?',
    ]);
    expect(lead).toBeDefined();
    expect(lead!.productsOfInterest).toEqual([]);
  }, 60_000);

  it("a conversation's products of interest are the products it named or was shown, nothing else", async () => {
    const lead = await guestConversation('Theo', ['What is the capital of France?', 'How much is the Pulse Fit Smartwatch?', 'Tell me a joke']);
    expect(lead!.productsOfInterest.map((p) => p.name)).toEqual(['Pulse Fit Smartwatch']);
  }, 60_000);

  it("a model's tool call that found products the answer never showed adds none of them", async () => {
    let round = 0;
    let finalText = OUT_OF_SCOPE;
    const fetchImpl = (async () => {
      round += 1;
      const message = round === 1
        ? { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'search_products', arguments: '{"query":"headphones"}' } }] }
        : { role: 'assistant', content: finalText };
      return new Response(JSON.stringify({ choices: [{ message }] }), { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    const assistant = createAssistant({ tools, llm: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: undefined, model: 'm', timeoutMs: 5000 }, log: t.app.log, fetchImpl });
    const offTopic = await assistant(guest, 'What is the capital of France?');
    expect(offTopic).toMatchObject({ source: 'llm', text: OUT_OF_SCOPE, products: [] });
    round = 0;
    finalText = 'The Aurora Studio Headphones cost $229.00.';
    const shown = await assistant(guest, 'Which headphones do you have?');
    expect(shown.products.map((p) => p.name)).toEqual(['Aurora Studio Headphones']);
  });

  it('products of interest: named by the whole name or all of its words, in the question or the answer', () => {
    const candidates = [{ productId: 'a', name: 'Aurora Wireless Headphones' }, { productId: 'b', name: 'Citrus Eau de Parfum' }, { productId: 'c', name: 'Speed Puzzle Cube' }];
    expect(productsOfInterestIn('What is the capital of France?', 'I can help with our products…', candidates)).toEqual([]);
    expect(productsOfInterestIn('Are the wireless Aurora headphones good?', 'They are.', candidates).map((p) => p.productId)).toEqual(['a']);
    expect(productsOfInterestIn('Any toys?', '- Speed Puzzle Cube by Brainy: $12.00', candidates).map((p) => p.productId)).toEqual(['c']);
    expect(productsOfInterestIn('citrus', 'Our citrus range is coming soon.', candidates)).toEqual([]);
    expect(productsOfInterestIn('Aurora Studio?', 'The Aurora Studio Headphones.', candidates)).toEqual([]);
  });
});
