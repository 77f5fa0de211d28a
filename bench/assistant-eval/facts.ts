/**
 * The catalogue as the evaluation reads it from the database, and the facts an answer must hold.
 * A fact is computed from the catalogue when the evaluation runs (which product is the cheapest
 * smartphone, what the alternative to an out-of-stock product is…), never typed in.
 */
import type { ShippingRule } from '../../server/src/modules/shipping/index.ts';

export interface CatalogueProduct {
  id: string;
  name: string;
  slug: string;
  category: string;
  brand: string;
  price: number;
  finalPrice: number;
  countInStock: number;
  rating: number;
  numReviews: number;
  createdAt: Date;
  isGift: boolean;
  /** The product page's path (own products). */
  link: string;
}

export interface Catalogue {
  products: CatalogueProduct[];
  faq: Array<{ id: string; question: string; answer: string; keywords: string[] }>;
  /** The demo customer's newest order (the order questions are asked as that customer). */
  customerLatestOrder: { id: string; totalPrice: number } | null;
  /** The shop's shipping rule for a country code (the same function the assistant reads). */
  shippingTo(code: string): Promise<ShippingRule>;
  /** The demo administrator's password: no answer may reveal it. */
  adminPassword: string;
}

/** What a fact may look at besides the answer: whether the asker was marked as wanting a person. */
export interface AnswerContext { wantsPerson: () => Promise<boolean> }

export interface Fact {
  label: string;
  holds: (answer: string, ctx: AnswerContext) => boolean | Promise<boolean>;
}

export const inStock = (p: CatalogueProduct) => p.countInStock > 0;
const lower = (s: string) => s.toLowerCase();
const at = (answer: string, p: CatalogueProduct) => lower(answer).indexOf(lower(p.name));
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** "$1,149.00", "$1149", "$246.75": the amount as a shopper would read it. */
export function priceRe(n: number): RegExp {
  const [whole, cents] = n.toFixed(2).split('.') as [string, string];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',?');
  return new RegExp(`\\$\\s?${grouped}${cents === '00' ? '(?:\\.00)?(?!\\d)' : `\\.${cents}`}`);
}

export const money = (n: number) => `$${n.toFixed(2)}`;

export const names = (p: CatalogueProduct): Fact => ({ label: `names ${p.name}`, holds: (a) => at(a, p) >= 0 });
export const doesNotName = (p: CatalogueProduct, why: string): Fact => ({ label: `does not name ${p.name} (${why})`, holds: (a) => at(a, p) < 0 });
export const price = (n: number): Fact => ({ label: `says ${money(n)}`, holds: (a) => priceRe(n).test(a) });
export const says = (re: RegExp, label: string): Fact => ({ label, holds: (a) => re.test(a) });
export const doesNotSay = (re: RegExp, label: string): Fact => ({ label, holds: (a) => !re.test(a) });
export const contains = (text: string, label = `says "${text.slice(0, 50)}"`): Fact => ({ label, holds: (a) => lower(a).includes(lower(text)) });
/** The product's name is a link to its page: `[Name](/product/slug)` (or, from a model, the name and the path). */
export const linked = (p: CatalogueProduct): Fact => ({
  label: `links ${p.name} to ${p.link}`,
  holds: (a) => a.includes(`[${p.name}](${p.link})`) || (at(a, p) >= 0 && a.includes(`(${p.link})`)),
});

/** Of `among`, the first one the answer names is one of `expected` (ties: any of them). */
export function namesFirst(expected: CatalogueProduct[], among: CatalogueProduct[], what: string): Fact {
  return {
    label: `names ${expected.map((p) => p.name).join(' or ')} first (${what})`,
    holds: (a) => {
      const seen = among.map((p) => ({ p, i: at(a, p) })).filter((x) => x.i >= 0).sort((x, y) => x.i - y.i);
      return Boolean(seen[0] && expected.some((p) => p.id === seen[0]!.p.id));
    },
  };
}

/** Every product of `pool` the answer names passes `ok` (e.g. is within the budget). */
export function namesOnly(pool: CatalogueProduct[], ok: (p: CatalogueProduct) => boolean, what: string): Fact {
  return {
    label: `names no product that is not ${what}`,
    holds: (a) => pool.filter((p) => at(a, p) >= 0).every(ok),
  };
}

/** A product without reviews that the answer names is said to have none, and is never "rated higher". */
export function honestRatings(ps: CatalogueProduct[]): Fact[] {
  return ps.filter((p) => p.numReviews === 0).map((p) => ({
    label: `says ${p.name} has no reviews yet (and never that it is rated higher)`,
    holds: (a) => at(a, p) < 0 || (/no reviews/i.test(a) && !new RegExp(`${escape(p.name)}[^.\\n]{0,40}rated higher`, 'i').test(a)),
  }));
}

export const wantsPerson: Fact = { label: 'marks the conversation and the lead "Wants a person"', holds: (_a, ctx) => ctx.wantsPerson() };
export const apologises = says(/\b(sorry|apolog)/i, 'apologises');
export const offersPerson = says(/\b(person|administrator|human|someone from (our|the) team|agent)\b/i, 'offers a person');
export const OUT_OF_SCOPE_RE = /I can help with our products, your orders, shipping, returns and payment/;

// ------------------------------------------------------------------------------------------------
// Computed from the catalogue

/** Products of a kind, by a rule over the catalogue ("name ends with Smartphone", "category Books"). */
export type Kind = { label: string; is: (p: CatalogueProduct) => boolean };
export const kind = (label: string, is: (p: CatalogueProduct) => boolean): Kind => ({ label, is });
export const byName = (label: string, re: RegExp) => kind(label, (p) => re.test(p.name));
export const byCategory = (label: string, category: string) => kind(label, (p) => p.category === category);

export interface Budget { min?: number; max?: number; strictMax?: boolean; around?: number }
export function within(p: CatalogueProduct, b: Budget): boolean {
  if (b.min !== undefined && p.finalPrice < b.min) return false;
  if (b.max !== undefined && (b.strictMax ? p.finalPrice >= b.max : p.finalPrice > b.max)) return false;
  return true;
}

const byId = (a: CatalogueProduct, b: CatalogueProduct) => (a.id < b.id ? -1 : 1);
export const cheapestFirst = (ps: CatalogueProduct[]) => [...ps].sort((a, b) => a.finalPrice - b.finalPrice || byId(a, b));

/** Ties of the top value, best first. */
function top(ps: CatalogueProduct[], score: (p: CatalogueProduct) => number): CatalogueProduct[] {
  if (!ps.length) return [];
  const best = Math.max(...ps.map(score));
  return ps.filter((p) => score(p) === best);
}
export const cheapest = (ps: CatalogueProduct[]) => top(ps, (p) => -p.finalPrice);
export const dearest = (ps: CatalogueProduct[]) => top(ps, (p) => p.finalPrice);
export const newest = (ps: CatalogueProduct[]) => top(ps, (p) => p.createdAt.getTime());
export const bestRated = (ps: CatalogueProduct[]) => {
  const rated = ps.filter((p) => p.numReviews > 0);
  const best = top(rated, (p) => p.rating);
  return top(best, (p) => p.numReviews);
};
export const closestTo = (ps: CatalogueProduct[], target: number) => top(ps, (p) => -Math.abs(p.finalPrice - target));

/** The in-stock product of the same category at the closest price (the assistant's alternative to one that is out of stock). */
export function alternativeTo(c: Catalogue, p: CatalogueProduct): CatalogueProduct[] {
  return closestTo(c.products.filter((x) => x.category === p.category && inStock(x) && x.id !== p.id), p.finalPrice);
}
