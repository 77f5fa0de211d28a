import { formatOrderNumber } from '@shop/contracts';
import type { LeadProductOfInterest } from '../../../db/schema.ts';
import { describeProduct } from './describe.ts';
import { scoreFaq } from './faq.ts';
import { alternativeLine, answerCatalogueQuestion, answerComparison, answerShipping, describeComparison } from './product-answers.ts';
import { isRelevant, OUT_OF_SCOPE, SHOPPING_INTENT } from './relevance.ts';
import type { OrderFact, ProductFact, ShopTools } from './shop-tools.ts';
import { understand, type HandOff, type Understanding } from './understand.ts';

/** Who is asking: order questions are answered only for the signed-in customer's own orders. */
export interface AskingUser { id: string; name: string; isGuest: boolean; isSignedIn: boolean }

export interface AssistantAnswer {
  text: string;
  /** Products the answer talked about (for the lead's products of interest). */
  products: LeadProductOfInterest[];
  /** The person asked for a person or was upset: the conversation and the lead are marked for an administrator. */
  handoff?: HandOff;
}

export { describeOptions, describePrice, describeProduct, describeStock, describeVariants } from './describe.ts';
const money = (n: number) => `$${n.toFixed(2)}`;

export function describeOrder(o: OrderFact): string {
  return `Order ${formatOrderNumber(o.number)} from ${o.date} (${money(o.total)}): ${o.status}.`;
}

export const welcomeGreeting = (name: string) =>
  `Hello ${name}! Welcome to our shop. I'm the AI Assistant. How can I help you today?`;

const GREETING = /^\s*(hi|hello|hey|good (morning|afternoon|evening)|hiya|howdy)\b[\s!.,]*$/i;
const THANKS = /^\s*(thanks|thank you|thx|cheers|great|ok|okay)\b[\s!.]*$/i;
const PRODUCT_HINT = /\b(price|cost|how much|stock|available|availability|have|sell|looking for|buy|recommend|compare|vs|versus|cheap|sale|discount|find|show)\b/i;

const toLead = (ps: ProductFact[]): LeadProductOfInterest[] => ps.map((p) => ({ productId: p.id, name: p.name }));

/** The hand-off: an apology, and a person from the shop is told (the caller marks the conversation and the lead). */
export function handOffText(why: HandOff, user: AskingUser): string {
  const later = user.isSignedIn ? '' : ' If you have to leave before then, we will follow up by e-mail.';
  return why === 'upset'
    ? `I'm sorry, I haven't been much help, and I understand that's frustrating. I've asked a person from our team to take over: an administrator will reply in this chat as soon as one is available.${later}`
    : `I'm sorry I couldn't sort this out for you myself. I've let our team know you'd like to talk to a person: an administrator will reply in this chat as soon as one is available.${later}`;
}

/**
 * The built-in assistant: no model, answers only from the shop's data: catalogue search (typos
 * included), prices with sale and stock from the database, the customer's own orders, and the
 * editable FAQ. A question outside the shop gets the plain scope sentence (OUT_OF_SCOPE), never a
 * guessed product. The message is read whole (understand.ts): budgets, superlatives, comparisons
 * in any wording, the country asked about, a wish for a person; the FAQ and the order look-up are
 * scored against each other rather than the first keyword winning.
 */
export async function answerBuiltIn(tools: ShopTools, user: AskingUser, text: string): Promise<AssistantAnswer> {
  const message = text.trim();
  if (GREETING.test(message)) return { text: `Hello ${user.name}! How can I help you today? Ask me about a product, its price or stock, your orders, shipping, returns or payment.`, products: [] };
  if (THANKS.test(message)) return { text: "You're welcome! Is there anything else I can help you with?", products: [] };
  const u = understand(message);
  if (u.handoff) {
    // Say sorry and call a person; then answer what else the message asked, if anything.
    const rest = await answerQuestion(tools, user, message, u, { handingOff: true });
    const extra = rest && rest.text !== OUT_OF_SCOPE ? `\n\n${rest.text}` : '';
    return { text: `${handOffText(u.handoff, user)}${extra}`, products: rest?.products ?? [], handoff: u.handoff };
  }
  return (await answerQuestion(tools, user, message, u, { handingOff: false }))!;
}

/** The answer to the message's question (null while handing off when it asked nothing else). */
async function answerQuestion(tools: ShopTools, user: AskingUser, message: string, u: Understanding, opts: { handingOff: boolean }): Promise<AssistantAnswer | null> {
  if (u.comparison) {
    const compared = await answerComparison(tools, u.comparison);
    if (compared) return compared;
  }

  // Shipping to a named country: the shop's shipping rule for it ("can you send my order to Japan?"
  // is about Japan; "where is my order to Japan?" about the order).
  if (u.country && u.aboutShipping && u.orders < 3) return answerShipping(tools, u.country);

  // The FAQ entry that matches best against the order look-up: "gift wrap my order" is about gift
  // wrapping (an entry scores on every keyword and question word), "where is my order" about the order.
  // While handing off, the entry about reaching a person says nothing new.
  const scored = scoreFaq(message).filter((x) => !opts.handingOff || !x.entry.keywords.some((k) => /^(human|person|agent|talk to|speak to)$/i.test(k)));
  const faqScore = scored[0]?.score ?? 0;
  if (u.orders > 0 && u.orders >= faqScore) {
    if (!user.isSignedIn) return { text: 'To check an order, please sign in: then I can tell you the status of your own orders. You can also see them under Order History.', products: [] };
    const orders = await tools.getMyOrders(user.id);
    if (!orders.length) return { text: "You don't have any orders yet. When you place one, I can tell you its status here.", products: [] };
    return { text: `Here are your latest orders:\n${orders.map(describeOrder).join('\n')}\nYou can see the details under Order History.`, products: [] };
  }
  if (u.orders > 0 && scored[0]) return { text: scored[0].entry.answer, products: [] };

  const catalogue = await answerCatalogueQuestion(tools, u, message);
  if (catalogue) return catalogue;

  const faq = scored.map((x) => x.entry);
  // The search is generous (descriptions, typos, single words): only products the message names are shown.
  const products = (await tools.searchProducts(message)).filter((p) => isRelevant(message, p));
  const asksAboutProducts = PRODUCT_HINT.test(message) || !faq.length;
  // "Compare the two Aurora headphones": one group that names exactly two products.
  if (products.length === 2 && u.comparison === null && /\b(compare|comparison|difference|differ)\b/i.test(message)) {
    return { text: describeComparison(products[0]!, products[1]!), products: toLead(products) };
  }
  if (products.length && asksAboutProducts) {
    const intro = products.length === 1 ? 'I found this product:' : `I found ${products.length} products:`;
    const extra = faq[0] && !/\b(price|cost|how much)\b/i.test(message) ? `\n${faq[0].answer}` : '';
    // One that is out of stock comes with an in-stock product of its category at the closest price.
    const lines: string[] = [];
    const shown = [...products];
    for (const p of products) {
      const alt = await alternativeLine(tools, p);
      lines.push(`- ${describeProduct(p)}${alt.text}`);
      if (alt.product && !shown.some((x) => x.id === alt.product!.id)) shown.push(alt.product);
    }
    return { text: `${intro}\n${lines.join('\n')}${extra}`, products: toLead(shown) };
  }
  // A policy answer shows no product, so none becomes a product of interest.
  if (faq[0]) return { text: faq[0].answer, products: [] };
  if (opts.handingOff) return null;
  if (SHOPPING_INTENT.test(message)) {
    return { text: `I couldn't find a product matching that in our catalogue. Try another name or browse all products at /search. ${OUT_OF_SCOPE}`, products: [] };
  }
  return { text: OUT_OF_SCOPE, products: [] };
}
