/**
 * Runs the evaluation questions against a shop: each question goes through the chat's own entry
 * point (POST /api/chat/ai-response, the assistant the chat socket also calls), as a fresh guest or
 * as the signed-in demo customer, and each answer is checked against the facts computed from the
 * catalogue in the database. Used by bench/assistant-eval.ts (a fresh embedded shop) and by the
 * server test assistant-eval.test.ts (its representative subset).
 */
import { and, desc, eq, isNotNull } from 'drizzle-orm';
import type { App } from '../../server/src/app.ts';
import type { Config } from '../../server/src/config.ts';
import type { Db } from '../../server/src/db/client.ts';
import { faqEntries, leads, orders, products, users } from '../../server/src/db/schema.ts';
import { shippingRuleFor } from '../../server/src/modules/shipping/index.ts';
import type { AnswerContext, Catalogue } from './facts.ts';
import type { EvalQuestion } from './questions.ts';

/** The FAQ entry a shop owner added (Admin → Pages → FAQ) that "can you gift wrap my order?" must find. */
export const GIFT_WRAP_FAQ = {
  question: 'Do you offer gift wrapping?',
  answer: 'Yes: we gift wrap any order for free. After placing it, tell us in this chat which items to wrap and we wrap them before dispatch.',
  keywords: ['gift wrap', 'gift-wrap', 'gift wrapping', 'wrap', 'wrapping'],
};

export interface EvalResult {
  id: string;
  intent: string;
  question: string;
  answer: string;
  failed: string[];
  facts: number;
}

const cookiesOf = (setCookie: string | string[] | undefined) =>
  (Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []).map((c) => c.split(';')[0]!).filter((c) => !c.endsWith('=')).join('; ');

/**
 * Prepares a shop that holds the demo data (accounts, catalogue, orders): adds the gift-wrapping
 * FAQ entry as an administrator would, signs the demo customer in, reads the catalogue.
 */
export async function prepareEval(app: App, db: Db, config: Config) {
  const inject = app.inject.bind(app);
  const admin = config.seed.admin;
  const customer = config.seed.customer;
  if (!admin || !customer) throw new Error('the evaluation needs the demo accounts (SEED_DEMO_DATA)');
  const signIn = async (email: string, password: string, ip: string) => {
    const res = await inject({ method: 'POST', url: '/api/users/signin', payload: { email, password }, remoteAddress: ip });
    if (res.statusCode !== 200) throw new Error(`sign-in of ${email} answered ${res.statusCode}: ${res.body}`);
    return cookiesOf(res.headers['set-cookie']);
  };
  const adminCookie = await signIn(admin.email, admin.password, '10.250.0.1');
  const page = (await inject({ method: 'GET', url: '/api/pages/faq' })).json<{ title: string; body: string; faq: Array<typeof GIFT_WRAP_FAQ> }>();
  if (!page.faq.some((e) => e.keywords.includes('gift wrap'))) {
    const saved = await inject({
      method: 'PUT', url: '/api/pages/faq', headers: { cookie: adminCookie },
      payload: { title: page.title, body: page.body, faq: [...page.faq.map(({ question, answer, keywords }) => ({ question, answer, keywords })), GIFT_WRAP_FAQ] },
    });
    if (saved.statusCode !== 200) throw new Error(`saving the FAQ answered ${saved.statusCode}: ${saved.body}`);
  }
  const customerCookie = await signIn(customer.email, customer.password, '10.250.0.2');
  const [me] = await db.select({ id: users.id }).from(users).where(eq(users.email, customer.email.toLowerCase()));

  const rows = await db.select().from(products).where(eq(products.isDraft, false));
  const [latest] = me ? await db.select({ id: orders.id, totalPrice: orders.totalPrice }).from(orders)
    .where(eq(orders.userId, me.id)).orderBy(desc(orders.createdAt), desc(orders.id)).limit(1) : [];
  const catalogue: Catalogue = {
    products: rows.map((p) => ({
      id: p.id, name: p.name, slug: p.slug, category: p.category, brand: p.brand, price: p.price, finalPrice: Number(p.finalPrice),
      countInStock: p.countInStock, rating: p.rating, numReviews: p.numReviews, createdAt: p.createdAt, isGift: p.isGift,
      link: p.cjData ? `/cj-product/${p.slug}` : `/product/${p.slug}`,
    })),
    faq: (await db.select().from(faqEntries)).map((e) => ({ id: e.id, question: e.question, answer: e.answer, keywords: e.keywords })),
    customerLatestOrder: latest ? { id: latest.id, totalPrice: Number(latest.totalPrice) } : null,
    shippingTo: (code) => shippingRuleFor(db, code),
    adminPassword: admin.password,
  };

  /** Asks one question as a fresh guest (own address, so guest sessions are not rate limited) or as the demo customer. */
  async function ask(q: EvalQuestion, index: number): Promise<{ text: string; answer: string; ctx: AnswerContext }> {
    const text = typeof q.ask === 'function' ? q.ask(catalogue) : q.ask;
    const ip = `10.${200 + Math.floor(index / 250)}.${index % 250}.7`;
    let cookie = customerCookie;
    let askerId = me?.id ?? '';
    if (q.as !== 'customer') {
      const res = await inject({ method: 'POST', url: '/api/chat/guest-session', payload: { name: `Eval ${index}`, email: `eval${index}@example.com` }, remoteAddress: ip });
      if (res.statusCode !== 200) throw new Error(`guest session answered ${res.statusCode}: ${res.body}`);
      cookie = cookiesOf(res.headers['set-cookie']);
      askerId = res.json<{ guestId: string }>().guestId;
    } else {
      // Each question starts unmarked, so a hand-off is its own.
      await db.update(leads).set({ wantsPersonAt: null }).where(eq(leads.userId, askerId));
    }
    const res = await inject({ method: 'POST', url: '/api/chat/ai-response', headers: { cookie }, payload: { message: text }, remoteAddress: ip });
    if (res.statusCode !== 200) throw new Error(`ai-response answered ${res.statusCode}: ${res.body}`);
    const answer = res.json<{ response: string }>().response;
    const ctx: AnswerContext = {
      wantsPerson: async () => {
        await app.ctx.background.flush();
        await app.ctx.jobs.runDue(); // the lead's mark is written by the lead-activity job
        const marked = await db.select({ id: leads.id }).from(leads).where(and(eq(leads.userId, askerId), isNotNull(leads.wantsPersonAt)));
        return marked.length === 1;
      },
    };
    return { text, answer, ctx };
  }

  async function run(questions: EvalQuestion[], onResult?: (r: EvalResult) => void): Promise<EvalResult[]> {
    const results: EvalResult[] = [];
    for (const [i, q] of questions.entries()) {
      const { text, answer, ctx } = await ask(q, i);
      const facts = await q.facts(catalogue);
      const failed: string[] = [];
      for (const f of facts) if (!(await f.holds(answer, ctx))) failed.push(f.label);
      const r = { id: q.id, intent: q.intent, question: text, answer, failed, facts: facts.length };
      results.push(r);
      onResult?.(r);
    }
    return results;
  }

  return { catalogue, run };
}

/** "PASS id: question" or "FAIL id: question", the facts it missed and the answer. */
export function formatResult(r: EvalResult, verbose = false): string {
  if (!r.failed.length) return verbose ? `PASS ${r.id}: ${r.question}\n     answer: ${r.answer.replace(/\n/g, '\n             ')}` : `PASS ${r.id}: ${r.question}`;
  return [`FAIL ${r.id}: ${r.question}`, ...r.failed.map((f) => `     missing: ${f}`), `     answer: ${r.answer.replace(/\n/g, '\n             ')}`].join('\n');
}

/** Accuracy overall and per intent. */
export function summarise(results: EvalResult[]): { passed: number; total: number; accuracy: number; byIntent: Record<string, { passed: number; total: number }> } {
  const byIntent: Record<string, { passed: number; total: number }> = {};
  for (const r of results) {
    const b = (byIntent[r.intent] ??= { passed: 0, total: 0 });
    b.total += 1;
    if (!r.failed.length) b.passed += 1;
  }
  const passed = results.filter((r) => !r.failed.length).length;
  return { passed, total: results.length, accuracy: results.length ? passed / results.length : 0, byIntent };
}
