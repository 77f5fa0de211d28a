import type { SearchOrder } from '@shop/contracts';
import type { LeadProductOfInterest } from '../../../db/schema.ts';
import { describeOrder, type AskingUser, type AssistantAnswer } from './built-in-assistant.ts';
import { findCountry } from './countries.ts';
import { describeOptions, describePrice, describeRating, describeStock, describeVariants, productLink } from './describe.ts';
import { describeComparison } from './product-answers.ts';
import { OUT_OF_SCOPE } from './relevance.ts';
import type { ProductFact, ShopTools } from './shop-tools.ts';

export interface LlmConfig { baseUrl: string; apiKey: string | undefined; model: string; timeoutMs: number }

interface ToolCall { id: string; type: 'function'; function: { name: string; arguments: string } }
interface LlmMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
}

const MAX_TOOL_ROUNDS = 4;

export const LLM_TOOLS = [
  {
    type: 'function',
    function: {
      name: 'search_products',
      description: "Search the shop's catalogue (typo tolerant). Returns up to 10 products with price after sale discount, stock, rating and link. " +
        'For budgets pass min_price/max_price (USD, the price after discount); for "cheapest", "most expensive", "best rated", "newest" pass sort. ' +
        'Products without reviews have no rating: never call them rated higher or lower than a rated one.',
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'what the customer is looking for; empty for the whole catalogue' },
          min_price: { type: 'number' },
          max_price: { type: 'number' },
          sort: { type: 'string', enum: ['relevance', 'cheapest', 'most_expensive', 'best_rated', 'newest'] },
          in_stock_only: { type: 'boolean' },
        },
        required: ['query'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'get_product',
      description: 'Look up one product by name: exact current price, sale, stock, rating and link.',
      parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    },
  },
  {
    type: 'function',
    function: {
      name: 'compare_products',
      description: 'Compare two products by name: price, stock, rating (or no reviews yet), description; says which is cheaper and which is rated higher.',
      parameters: { type: 'object', properties: { first: { type: 'string' }, second: { type: 'string' } }, required: ['first', 'second'] },
    },
  },
  {
    type: 'function',
    function: {
      name: 'shipping_to',
      description: "The shop's shipping rule for a country (price, dispatch and delivery days). Pass the country as the customer wrote it.",
      parameters: { type: 'object', properties: { country: { type: 'string' } }, required: ['country'] },
    },
  },
  {
    type: 'function',
    function: {
      name: 'get_my_orders',
      description: "The signed-in customer's latest orders with their status (paid, delivered). Empty for guests.",
      parameters: { type: 'object', properties: {} },
    },
  },
  {
    type: 'function',
    function: {
      name: 'faq',
      description: "The shop's policies: shipping, returns, payment, account, contact. Pass the topic or question.",
      parameters: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] },
    },
  },
] as const;

const productJson = (p: ProductFact) => ({
  name: p.name, brand: p.brand, category: p.category, price: describePrice(p), finalPrice: p.finalPrice, stock: describeStock(p),
  rating: describeRating(p), added: p.createdAt.slice(0, 10), link: p.link, markdownLink: productLink(p),
  ...(p.variants && p.variants.length > 1 ? { variants: describeVariants(p) } : {}),
  ...(p.options?.length ? { options: describeOptions(p) } : {}),
});

const SORTS: Record<string, SearchOrder> = { cheapest: 'lowest', most_expensive: 'highest', best_rated: 'toprated', newest: 'newest' };

function systemPrompt(user: AskingUser): string {
  return [
    "You are the AI Assistant of an online shop (prices in USD). Answer briefly and kindly.",
    'Use the tools for every fact about products, prices, stock, orders, shipping and policies; never invent a price, stock figure or policy.',
    'Write every product you name as its markdownLink from the tools, e.g. [Nova X5 Smartphone](/product/nova-x5-smartphone).',
    'For a budget, a "cheapest", "best rated" or "newest" question, use search_products with its filters and name the one that answers it first. For two products, use compare_products.',
    'A product with "no reviews yet" is never rated higher or lower than another: say it has no reviews yet.',
    "If the tools don't answer a question about the shop, say you don't know and offer an administrator (they answer in this chat when online).",
    `If the question is not about the shop (general knowledge, weather, maths, anything else), answer exactly ${JSON.stringify(OUT_OF_SCOPE)} and name no product.`,
    `The customer's name is ${JSON.stringify(user.name)}; they are ${user.isSignedIn ? 'signed in' : 'a guest (not signed in, no orders)'}.`,
  ].join(' ');
}

/**
 * Answers with an OpenAI-compatible chat-completions model whose facts come from tool calls into
 * the shop's data (search_products, get_product, get_my_orders, faq). Throws on any error or
 * after `timeoutMs`; the caller falls back to the built-in assistant.
 */
export async function answerWithLlm(
  config: LlmConfig, tools: ShopTools, user: AskingUser, text: string, fetchImpl: typeof fetch = fetch,
): Promise<AssistantAnswer> {
  const signal = AbortSignal.timeout(config.timeoutMs);
  const products = new Map<string, LeadProductOfInterest>();
  const messages: LlmMessage[] = [{ role: 'system', content: systemPrompt(user) }, { role: 'user', content: text }];

  async function runTool(call: ToolCall): Promise<unknown> {
    let args: Record<string, unknown> = {};
    try { args = JSON.parse(call.function.arguments || '{}') as Record<string, unknown>; } catch { return { error: 'arguments are not valid JSON' }; }
    const str = (k: string) => (typeof args[k] === 'string' ? (args[k] as string) : '');
    switch (call.function.name) {
      case 'search_products': {
        const sort = SORTS[str('sort')];
        const num = (k: string) => (typeof args[k] === 'number' && Number.isFinite(args[k]) ? (args[k] as number) : undefined);
        const [min, max] = [num('min_price'), num('max_price')];
        const query = str('query');
        let found = sort || min !== undefined || max !== undefined
          ? await tools.browse({ query, order: sort ?? 'lowest', pages: 3 })
          : await tools.searchProducts(query, 10);
        found = found.filter((p) => (min === undefined || p.finalPrice >= min) && (max === undefined || p.finalPrice <= max)
          && (args.in_stock_only !== true || p.countInStock > 0));
        if (sort === 'toprated') found = found.filter((p) => p.numReviews > 0).concat(found.filter((p) => p.numReviews === 0));
        found = found.slice(0, 10);
        for (const p of found) products.set(p.id, { productId: p.id, name: p.name });
        return found.length ? found.map(productJson) : { result: 'no matching product' };
      }
      case 'compare_products': {
        const [a] = await tools.searchProducts(str('first'), 1);
        const [b] = await tools.searchProducts(str('second'), 1);
        if (!a || !b || a.id === b.id) return { result: 'could not find both products' };
        for (const p of [a, b]) products.set(p.id, { productId: p.id, name: p.name });
        return { comparison: describeComparison(a, b) };
      }
      case 'shipping_to': {
        const country = findCountry(str('country'));
        if (!country) return { result: 'not a country we recognise' };
        return { country: country.name, ...(await tools.shippingTo(country.code)) };
      }
      case 'get_product': {
        const found = await tools.searchProducts(str('name'), 1);
        for (const p of found) products.set(p.id, { productId: p.id, name: p.name });
        return found.length ? found.map(productJson) : { result: 'no matching product' };
      }
      case 'get_my_orders':
        if (!user.isSignedIn) return { result: 'the customer is not signed in; ask them to sign in to check orders' };
        return (await tools.getMyOrders(user.id, 5)).map((o) => ({ summary: describeOrder(o), items: o.items }));
      case 'faq': {
        const hits = tools.faq(str('topic'));
        return (hits.length ? hits : tools.allFaq()).slice(0, 3).map((e) => ({ question: e.question, answer: e.answer }));
      }
      default:
        return { error: `unknown tool ${call.function.name}` };
    }
  }

  for (let round = 0; round <= MAX_TOOL_ROUNDS; round += 1) {
    const res = await fetchImpl(`${config.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(config.apiKey ? { Authorization: `Bearer ${config.apiKey}` } : {}) },
      body: JSON.stringify({
        model: config.model, messages, temperature: 0.2, max_tokens: 500,
        ...(round < MAX_TOOL_ROUNDS ? { tools: LLM_TOOLS, tool_choice: 'auto' } : {}),
      }),
      signal,
    });
    if (!res.ok) throw new Error(`model answered HTTP ${res.status}`);
    const body = await res.json() as { choices?: Array<{ message?: LlmMessage }> };
    const reply = body.choices?.[0]?.message;
    if (!reply) throw new Error('model answer has no message');
    if (reply.tool_calls?.length) {
      messages.push({ role: 'assistant', content: reply.content ?? null, tool_calls: reply.tool_calls });
      for (const call of reply.tool_calls) {
        messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(await runTool(call)) });
      }
      continue;
    }
    const content = typeof reply.content === 'string' ? reply.content.trim() : '';
    if (!content) throw new Error('model answer is empty');
    return { text: content.slice(0, 4000), products: [...products.values()].slice(0, 5) };
  }
  throw new Error('model kept calling tools');
}
