import type { SearchOrder } from '@shop/contracts';
import type { LeadProductOfInterest } from '../../../db/schema.ts';
import type { AssistantAnswer } from './built-in-assistant.ts';
import { describePrice, describeProduct, describeRating, describeStock, money, productLink } from './describe.ts';
import { headWord, kindTerms, selectKind, synonymQueries } from './product-kinds.ts';
import { SHOP_WORDS, SHOPPING_INTENT, termNames } from './relevance.ts';
import type { ProductFact, ShopTools } from './shop-tools.ts';
import { describeBudget, withinBudget, type Budget, type Comparison, type Superlative, type Understanding } from './understand.ts';
import type { NamedCountry } from './countries.ts';
import { describeSeparateShipping, describeShippingTo } from '../../shipping/index.ts';

/**
 * The built-in assistant's answers that need more than one product look-up: budgets and
 * superlatives over a kind of product, comparisons, an in-stock alternative to a product that is
 * out of stock, shipping to a country. Every figure comes from the database through ShopTools.
 */

const toLead = (ps: ProductFact[]): LeadProductOfInterest[] => ps.map((p) => ({ productId: p.id, name: p.name }));
const inStock = (p: ProductFact) => p.countInStock > 0;
const SHOWN = 5;
const GIFT = /\b(gifts?|presents?)\b/i;

const ORDER_OF: Record<Superlative, SearchOrder> = { cheapest: 'lowest', priciest: 'highest', 'best-rated': 'toprated', newest: 'newest' };

/** Ranks products for a superlative (best first); best rated: rated products by rating then number of reviews, unrated last. */
function rank(ps: ProductFact[], s: Superlative | null, budget: Budget | null): ProductFact[] {
  const by = [...ps];
  const id = (a: ProductFact, b: ProductFact) => (a.id < b.id ? -1 : 1);
  switch (s) {
    case 'cheapest': return by.sort((a, b) => a.finalPrice - b.finalPrice || id(a, b));
    case 'priciest': return by.sort((a, b) => b.finalPrice - a.finalPrice || id(a, b));
    case 'best-rated': return by.sort((a, b) => Number(b.numReviews > 0) - Number(a.numReviews > 0) || b.rating - a.rating || b.numReviews - a.numReviews || id(a, b));
    case 'newest': return by.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || id(a, b));
    default:
      if (budget?.around !== undefined) return by.sort((a, b) => Math.abs(a.finalPrice - budget.around!) - Math.abs(b.finalPrice - budget.around!) || a.finalPrice - b.finalPrice);
      return by.sort((a, b) => a.finalPrice - b.finalPrice || id(a, b));
  }
}

const line = (p: ProductFact, s: Superlative | null) => {
  const extra = s === 'best-rated' ? ` ${capital(describeRating(p))}.` : s === 'newest' ? ` Added on ${p.createdAt.slice(0, 10)}.` : '';
  return `- ${describeProduct(p)}${extra}`;
};
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The products a kind question may be about: the shop's search for each word that could name the kind, in the asked order. */
async function candidatesFor(tools: ShopTools, terms: string[], order: SearchOrder, gift: boolean): Promise<ProductFact[]> {
  const byId = new Map<string, ProductFact>();
  const tag = gift ? { tag: 'gifts' as const } : {};
  if (!terms.length) {
    for (const p of await tools.browse({ order, ...tag, pages: 5 })) byId.set(p.id, p);
    return [...byId.values()];
  }
  for (const term of terms.slice(0, 4)) {
    for (const p of await tools.browse({ query: term, order, ...tag, pages: 3 })) byId.set(p.id, p);
  }
  // Everyday words the catalogue does not use ("phone" for smartphones): their catalogue word too.
  for (const term of terms.slice(0, 4)) {
    for (const alt of synonymQueries(term)) for (const p of await tools.browse({ query: alt, order, ...tag, pages: 3 })) byId.set(p.id, p);
  }
  return [...byId.values()];
}

/**
 * "Any laptop under $1000?", "cheapest smartphone?", "best rated headphones", "newest books",
 * "gifts between $20 and $40": the products of the kind asked about (all products when none is
 * named), in stock, within the budget, ranked by the superlative. Null when the message has
 * neither a budget nor a superlative (the plain product answer applies).
 */
export async function answerCatalogueQuestion(tools: ShopTools, u: Understanding, message: string): Promise<AssistantAnswer | null> {
  if (!u.budget && !u.superlative) return null;
  const gift = GIFT.test(message);
  const terms = kindTerms(u.rest).filter((t) => !GIFT.test(t));
  const order = u.superlative ? ORDER_OF[u.superlative] : 'lowest';
  // Words such as "dad" or "red" name no kind: with nothing else, every product is a candidate.
  const candidates = await candidatesFor(tools, terms.filter((t) => !SHOP_WORDS.has(t)), order, gift);
  const kind = selectKind(terms, candidates);
  // Outside a shopping question, the words must name products, not merely occur in a description
  // ("the best recipe for lasagna" is not about the cookbook): as for any product (relevance.ts).
  const shopping = SHOPPING_INTENT.test(message) || u.budget !== null || u.superlative === 'cheapest' || u.superlative === 'priciest';
  if (!shopping && (kind.tier >= 3 || (kind.unknown.length > 0 && kind.unknown.length >= kind.named.length))) return null;
  const what = kind.label || (gift ? 'gift' : 'product');
  const budgetText = u.budget ? ` ${describeBudget(u.budget)}` : '';
  if (!kind.products.length) {
    return { text: `I couldn't find any ${what} in our catalogue. Try another name or browse all products at /search.`, products: [] };
  }
  const available = kind.products.filter(inStock);
  const fits = u.budget ? available.filter((p) => withinBudget(p.finalPrice, u.budget!)) : available;
  const ranked = rank(fits, u.superlative, u.budget);

  if (!ranked.length) {
    const parts = [`I couldn't find any ${what}${budgetText} in stock right now.`];
    const outOfStockFits = u.budget ? kind.products.filter((p) => !inStock(p) && withinBudget(p.finalPrice, u.budget!)) : kind.products;
    if (outOfStockFits[0]) parts.push(`${productLink(outOfStockFits[0])} (${money(outOfStockFits[0].finalPrice)}) would fit, but it is out of stock.`);
    const closest = u.budget ? closestTo(available, u.budget) : undefined;
    if (closest) parts.push(`The closest in stock is ${productLink(closest)} at ${describePrice(closest)}.`);
    return { text: parts.join(' '), products: toLead([...outOfStockFits.slice(0, 1), ...(closest ? [closest] : [])]) };
  }

  const top = ranked[0]!;
  let head: string;
  let rest = ranked.slice(1);
  switch (u.superlative) {
    case 'cheapest':
    case 'priciest': {
      head = `${u.superlative === 'cheapest' ? 'The cheapest' : 'The most expensive'} ${what}${budgetText} in stock: ${productLink(top)} at ${describePrice(top)}.`;
      // A cheaper (or dearer) one that is out of stock is worth a word.
      const beyond = kind.products.filter((p) => !inStock(p) && (!u.budget || withinBudget(p.finalPrice, u.budget)) && (u.superlative === 'cheapest' ? p.finalPrice < top.finalPrice : p.finalPrice > top.finalPrice));
      if (beyond[0]) head += ` (${productLink(beyond[0])} is ${u.superlative === 'cheapest' ? 'cheaper' : 'dearer'} at ${money(beyond[0].finalPrice)} but currently out of stock.)`;
      break;
    }
    case 'best-rated': {
      const rated = ranked.filter((p) => p.numReviews > 0);
      if (rated[0]) {
        head = `The best rated ${what}${budgetText}: ${productLink(rated[0])}, ${describeRating(rated[0])}, at ${describePrice(rated[0])}.`;
        rest = ranked.filter((p) => p !== rated[0]);
      } else {
        head = `None of these ${what} products${budgetText} has reviews yet, so I can't say which is rated best.`;
        rest = ranked;
      }
      break;
    }
    case 'newest':
      head = `The newest ${what}${budgetText}: ${productLink(top)}, added on ${top.createdAt.slice(0, 10)}, at ${describePrice(top)}.`;
      break;
    default:
      head = `I found ${ranked.length} ${ranked.length === 1 ? 'match' : 'matches'}${kind.label ? ` for ${kind.label}` : gift ? ' among our gifts' : ''}${budgetText} in stock, ${u.budget?.around !== undefined ? 'closest price first' : 'lowest price first'}:`;
      rest = ranked;
  }
  const shown = rest.slice(0, SHOWN);
  const more = rest.length > SHOWN ? `\n…and ${rest.length - SHOWN} more.` : '';
  const list = shown.length ? `\n${u.superlative ? 'Also in stock:\n' : ''}${shown.map((p) => line(p, u.superlative)).join('\n')}${more}` : '';
  return { text: `${head}${list}`, products: toLead(u.superlative ? [top, ...shown] : shown) };
}

/** The in-stock product nearest a budget: just above a maximum, just below a minimum, nearest "around". */
function closestTo(ps: ProductFact[], b: Budget): ProductFact | undefined {
  const target = b.around ?? (b.max !== undefined && ps.every((p) => p.finalPrice > b.max!) ? b.max : b.min ?? b.max ?? 0);
  return [...ps].sort((x, y) => Math.abs(x.finalPrice - target) - Math.abs(y.finalPrice - target))[0];
}

// ------------------------------------------------------------------------------------------------
// Comparisons

const nameWords = (p: ProductFact) => `${p.name} ${p.brand}`.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * The products one side of a comparison names: those most of its words name (name or brand), best
 * first; `sure` when one alone is best. "the Zentek one" names every Zentek product: the caller
 * keeps the one of the other side's kind.
 */
async function identify(tools: ShopTools, side: string): Promise<{ products: ProductFact[]; sure: boolean } | null> {
  const terms = kindTerms(side);
  if (!terms.length) return null;
  const byId = new Map<string, ProductFact>();
  for (const p of await tools.searchProducts(terms.join(' '), 5)) byId.set(p.id, p);
  for (const t of terms.slice(0, 4)) for (const p of await tools.searchProducts(t, 5)) byId.set(p.id, p);
  const score = (p: ProductFact) => terms.filter((t) => nameWords(p).some((w) => t === w || termNames(t, w))).length;
  const scored = [...byId.values()].map((p) => ({ p, n: score(p) })).filter((x) => x.n > 0).sort((a, b) => b.n - a.n);
  const best = scored[0];
  if (!best) return null;
  const tied = scored.filter((x) => x.n === best.n).map((x) => x.p);
  // Half the side's words at least must name it ("Buds Sport for running" → Buds Sport Earbuds).
  if (best.n * 2 < terms.length && tied.length > 1) return null;
  return { products: tied, sure: tied.length === 1 && (best.n >= 2 || terms.length === 1) };
}

/** Of several products one side names, the one of the same kind as the other side's product (head word, then category). */
function sameKindAs(ps: ProductFact[], other: ProductFact): ProductFact {
  return ps.find((p) => p.id !== other.id && headWord(p.name) === headWord(other.name))
    ?? ps.find((p) => p.id !== other.id && p.category === other.category)
    ?? ps.find((p) => p.id !== other.id)
    ?? ps[0]!;
}

/** "Comparing the two:" each product's price, stock, rating (or "no reviews yet") and description, then which is cheaper and which is rated higher. */
export function describeComparison(a: ProductFact, b: ProductFact): string {
  const one = (p: ProductFact) => `- ${productLink(p)} by ${p.brand}: ${describePrice(p)}, ${describeStock(p)}, ${describeRating(p)}. ${p.description}`;
  const lines = ['Comparing the two:', one(a), one(b)];
  if (a.finalPrice === b.finalPrice) lines.push('Price: they cost the same.');
  else {
    const [cheap, dear] = a.finalPrice < b.finalPrice ? [a, b] : [b, a];
    lines.push(`Price: ${cheap.name} is cheaper, by ${money(dear.finalPrice - cheap.finalPrice)}.`);
  }
  const ra = a.numReviews > 0;
  const rb = b.numReviews > 0;
  if (ra && rb) {
    if (a.rating === b.rating) lines.push(`Reviews: both are rated ${a.rating.toFixed(1)} of 5.`);
    else {
      const [hi, lo] = a.rating > b.rating ? [a, b] : [b, a];
      lines.push(`Reviews: ${hi.name} is rated higher (${hi.rating.toFixed(1)} vs ${lo.rating.toFixed(1)} of 5).`);
    }
  } else if (ra || rb) {
    const [rated, unrated] = ra ? [a, b] : [b, a];
    lines.push(`Reviews: ${unrated.name} has no reviews yet, so the two can't be compared on ratings (${rated.name} is ${describeRating(rated)}).`);
  } else lines.push('Reviews: neither has reviews yet.');
  const out = [a, b].filter((p) => !inStock(p));
  if (out.length === 1) lines.push(`Stock: ${out[0]!.name} is out of stock right now.`);
  else if (out.length === 2) lines.push('Stock: both are out of stock right now.');
  return lines.join('\n');
}

/**
 * Two products compared, in any wording (understand.ts findComparison): the first way of cutting the
 * sentence whose two sides each name a different product. Without a word saying it is a comparison
 * ("A or B?"), both sides must name their product surely.
 */
export async function answerComparison(tools: ShopTools, c: Comparison): Promise<AssistantAnswer | null> {
  for (const [left, right] of c.splits.slice(0, 4)) {
    const l = await identify(tools, left);
    if (!l) continue;
    const r = await identify(tools, right);
    if (!r) continue;
    if (!c.explicit && !(l.sure && r.sure)) continue;
    const a = l.products.length === 1 || r.products.length > 1 ? l.products[0]! : sameKindAs(l.products, r.products[0]!);
    const b = sameKindAs(r.products, a);
    if (a.id === b.id) continue;
    return { text: describeComparison(a, b), products: toLead([a, b]) };
  }
  return null;
}

// ------------------------------------------------------------------------------------------------
// Out of stock, shipping

/** " It is out of stock right now; a similar product in stock: [X](/product/x) at $Y." ('' when in stock or nothing similar is.) */
export async function alternativeLine(tools: ShopTools, p: ProductFact): Promise<{ text: string; product: ProductFact | null }> {
  if (inStock(p) || p.variants?.some((v) => v.countInStock > 0)) return { text: '', product: null };
  const alt = await tools.alternativeFor(p);
  if (!alt) return { text: ` ${p.name} is out of stock right now.`, product: null };
  return { text: `\n  ${p.name} is out of stock right now. A similar product in stock (${p.category}, closest price): ${productLink(alt)} at ${describePrice(alt)}, ${describeStock(alt)}.`, product: alt };
}

/** Shipping to a country the shopper named, from the shipping settings checkout charges from (shippingRuleFor). */
export async function answerShipping(tools: ShopTools, country: NamedCountry): Promise<AssistantAnswer> {
  const rule = await tools.shippingTo(country.code);
  const to = country.name;
  if (!rule.ships) return { text: `Sorry, we don't ship to ${to} at the moment.`, products: [] };
  return {
    text: `Shipping to ${to} is ${describeShippingTo(rule.settings, rule.price)}: orders are dispatched within ${rule.dispatchDays} business days and arrive within ${rule.deliveryDays} business days. ` +
      describeSeparateShipping(rule.settings),
    products: [],
  };
}

