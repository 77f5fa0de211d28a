import { formatOrderNumber } from '@shop/contracts';
import type { LeadProductOfInterest } from '../../../db/schema.ts';
import { isRelevant, OUT_OF_SCOPE, SHOPPING_INTENT } from './relevance.ts';
import type { OrderFact, ProductFact, ShopTools } from './shop-tools.ts';

/** Who is asking: order questions are answered only for the signed-in customer's own orders. */
export interface AskingUser { id: string; name: string; isGuest: boolean; isSignedIn: boolean }

export interface AssistantAnswer {
  text: string;
  /** Products the answer talked about (for the lead's products of interest). */
  products: LeadProductOfInterest[];
}

const money = (n: number) => `$${n.toFixed(2)}`;

export function describePrice(p: ProductFact): string {
  return p.isOnSale ? `${money(p.finalPrice)} (${p.saleDiscount}% OFF, was ${money(p.price)})` : money(p.finalPrice);
}

export function describeStock(p: Pick<ProductFact, 'countInStock'>): string {
  if (p.countInStock <= 0) return 'currently out of stock';
  if (p.countInStock <= 5) return `in stock (only ${p.countInStock} left)`;
  return `in stock (${p.countInStock} available)`;
}

/** Variants named one by one; beyond this many, "and N more". */
const VARIANTS_NAMED = 12;

/** "Variants: Black $26.99 (in stock (12 available)), Red $29.99 (currently out of stock)" ('' with one or none). */
export function describeVariants(p: ProductFact): string {
  if (!p.variants || p.variants.length < 2) return '';
  const one = (v: NonNullable<ProductFact['variants']>[number]) =>
    `${v.name} ${p.isOnSale ? `${money(v.finalPrice)} (was ${money(v.price)})` : money(v.finalPrice)} (${describeStock(v)})`;
  const named = p.variants.slice(0, VARIANTS_NAMED).map(one).join(', ');
  const more = p.variants.length - VARIANTS_NAMED;
  return `Variants: ${named}${more > 0 ? ` and ${more} more` : ''}.`;
}

/** "available in S, M, L" (one option) or "available in S, M, L (Size) and Red, Blue (Colour)"; '' without options. */
export function describeOptions(p: Pick<ProductFact, 'options'>): string {
  const options = p.options ?? [];
  if (!options.length) return '';
  if (options.length === 1) return `available in ${options[0]!.values.join(', ')}`;
  return `available in ${options.map((o) => `${o.values.join(', ')} (${o.name})`).join(' and ')}`;
}

export function describeProduct(p: ProductFact): string {
  const variants = describeVariants(p);
  const options = describeOptions(p);
  if (options) return `${p.name} by ${p.brand}: ${options}. ${variants || `${describePrice(p)}, ${describeStock(p)}.`} See it at ${p.link}`;
  if (variants) return `${p.name} by ${p.brand}: ${variants} See it at ${p.link}`;
  return `${p.name} by ${p.brand}: ${describePrice(p)}, ${describeStock(p)}. See it at ${p.link}`;
}

export function describeOrder(o: OrderFact): string {
  return `Order ${formatOrderNumber(o.number)} from ${o.date} (${money(o.total)}): ${o.status}.`;
}

export const welcomeGreeting = (name: string) =>
  `Hello ${name}! Welcome to our shop. I'm the AI Assistant. How can I help you today?`;

const GREETING = /^\s*(hi|hello|hey|good (morning|afternoon|evening)|hiya|howdy)\b[\s!.,]*$/i;
const THANKS = /^\s*(thanks|thank you|thx|cheers|great|ok|okay)\b[\s!.]*$/i;
const ORDER = /\b(my orders?|where is my|order status|track(ing)?|has my order|did my order|when will my|orders? (been )?(shipped|delivered))\b/i;
const COMPARE = /\bcompare\s+(.+?)\s+(?:and|with|to|vs\.?|versus)\s+(.+)|(.+?)\s+(?:vs\.?|versus|or)\s+(.+?)(?:\?|$)/i;
const PRODUCT_HINT = /\b(price|cost|how much|stock|available|availability|have|sell|looking for|buy|recommend|compare|vs|versus|cheap|sale|discount|find|show)\b/i;

const toLead = (ps: ProductFact[]): LeadProductOfInterest[] => ps.map((p) => ({ productId: p.id, name: p.name }));

/**
 * The built-in assistant: no model, answers only from the shop's data: catalogue search (typos
 * included), prices with sale and stock from the database, the customer's own orders, and the
 * editable FAQ. A question outside the shop gets the plain scope sentence (OUT_OF_SCOPE), never a
 * guessed product.
 */
export async function answerBuiltIn(tools: ShopTools, user: AskingUser, text: string): Promise<AssistantAnswer> {
  const message = text.trim();
  if (GREETING.test(message)) return { text: `Hello ${user.name}! How can I help you today? Ask me about a product, its price or stock, your orders, shipping, returns or payment.`, products: [] };
  if (THANKS.test(message)) return { text: "You're welcome! Is there anything else I can help you with?", products: [] };

  if (ORDER.test(message)) {
    if (!user.isSignedIn) return { text: 'To check an order, please sign in: then I can tell you the status of your own orders. You can also see them under Order History.', products: [] };
    const orders = await tools.getMyOrders(user.id);
    if (!orders.length) return { text: "You don't have any orders yet. When you place one, I can tell you its status here.", products: [] };
    return { text: `Here are your latest orders:\n${orders.map(describeOrder).join('\n')}\nYou can see the details under Order History.`, products: [] };
  }

  const compare = COMPARE.exec(message);
  if (compare && /\b(compare|vs\.?|versus|or|better|difference)\b/i.test(message)) {
    const left = compare[1] ?? compare[3] ?? '';
    const right = compare[2] ?? compare[4] ?? '';
    const [a] = (await tools.searchProducts(left, 1)).filter((p) => isRelevant(left, p));
    const [b] = (await tools.searchProducts(right, 1)).filter((p) => isRelevant(right, p));
    if (a && b && a.id !== b.id) {
      const cheaper = a.finalPrice === b.finalPrice ? 'They cost the same.' : `${a.finalPrice < b.finalPrice ? a.name : b.name} is cheaper.`;
      const rated = a.rating === b.rating ? '' : ` ${a.rating > b.rating ? a.name : b.name} is rated higher (${Math.max(a.rating, b.rating).toFixed(1)} of 5).`;
      return {
        text: `Comparing the two:\n- ${describeProduct(a)} Rated ${a.rating.toFixed(1)} of 5 (${a.numReviews} reviews).\n- ${describeProduct(b)} Rated ${b.rating.toFixed(1)} of 5 (${b.numReviews} reviews).\n${cheaper}${rated}`,
        products: toLead([a, b]),
      };
    }
  }

  const faq = tools.faq(message);
  // The search is generous (descriptions, typos, single words): only products the message names are shown.
  const products = (await tools.searchProducts(message)).filter((p) => isRelevant(message, p));
  const asksAboutProducts = PRODUCT_HINT.test(message) || !faq.length;
  if (products.length && asksAboutProducts) {
    const intro = products.length === 1 ? 'I found this product:' : `I found ${products.length} products:`;
    const extra = faq[0] && !/\b(price|cost|how much)\b/i.test(message) ? `\n${faq[0].answer}` : '';
    return { text: `${intro}\n${products.map((p) => `- ${describeProduct(p)}`).join('\n')}${extra}`, products: toLead(products) };
  }
  // A policy answer shows no product, so none becomes a product of interest.
  if (faq[0]) return { text: faq[0].answer, products: [] };
  if (SHOPPING_INTENT.test(message)) {
    return { text: `I couldn't find a product matching that in our catalogue. Try another name or browse all products at /search. ${OUT_OF_SCOPE}`, products: [] };
  }
  return { text: OUT_OF_SCOPE, products: [] };
}
