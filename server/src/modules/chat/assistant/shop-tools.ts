import { productSearchQuerySchema, type Order, type Product, type SearchOrder } from '@shop/contracts';
import { and, asc, gt, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { products } from '../../../db/schema.ts';
import { listMyOrders } from '../../orders/find-orders.ts';
import { catalogueCacheFor, isPublished, presentProduct, productColumns, searchProducts } from '../../products/index.ts';
import { shippingRuleFor, type ShippingRule } from '../../shipping/index.ts';
import { findVariants, variantFinalPrice } from '../../supplier/index.ts';
import { loadFaq, matchFaq, type FaqEntry } from './faq.ts';

/** A product as the assistant quotes it: every figure read from the database. */
export interface ProductFact {
  id: string;
  name: string;
  brand: string;
  category: string;
  /** Read to judge whether a shopping question is about this product (never quoted). */
  description: string;
  price: number;
  finalPrice: number;
  saleDiscount: number;
  isOnSale: boolean;
  countInStock: number;
  rating: number;
  numReviews: number;
  /** When it was added to the catalogue (ISO), for "newest". */
  createdAt: string;
  link: string;
  /** A supplier product with several variants on sale: each one's name, price and stock (issue 20). */
  variants?: VariantFact[];
  /** An own product with options: each option with the values of its variants on sale (issue 34). */
  options?: Array<{ name: string; values: string[] }>;
}

export interface VariantFact {
  name: string;
  price: number;
  finalPrice: number;
  countInStock: number;
}

export interface OrderFact {
  id: string;
  /** The order number customers know it by (#1003). */
  number: number;
  date: string;
  total: number;
  isPaid: boolean;
  paidAt: string | null;
  isDelivered: boolean;
  deliveredAt: string | null;
  items: string[];
  status: string;
}

export const STOPWORDS = new Set(('a an the is are was were be do does did have has had i you we me my your our it its this that these those ' +
  'what which who how much many any some there here of for to in on at with and or but about from by can could would should will ' +
  'please tell show find looking look want need get give price prices cost costs stock available availability in-stock buy ' +
  'sell selling sale discount products product item items one ones hi hello hey thanks thank compare vs versus between ' +
  'difference better than other still left got carry offer much if know just like more cheap cheapest best').split(/\s+/));

/** The words of a message worth searching the catalogue for. */
export function searchTerms(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 1 && !STOPWORDS.has(w)).slice(0, 6);
}

function toFact(p: Product): ProductFact {
  return {
    id: p._id, name: p.name, brand: p.brand, category: p.category, description: p.description, price: p.price, finalPrice: p.finalPrice,
    saleDiscount: p.isOnSale ? p.saleDiscount : 0, isOnSale: p.isOnSale && p.saleDiscount > 0, countInStock: p.countInStock,
    rating: p.rating, numReviews: p.numReviews, createdAt: p.createdAt, link: p.cjData ? `/cj-product/${p.slug}` : `/product/${p.slug}`,
  };
}

/** What a browse of the catalogue asks the shop's search for (the storefront's own filters and orders). */
export interface BrowseOptions {
  /** Text to search for; none: every product. */
  query?: string;
  order?: SearchOrder;
  /** The storefront's gift tag. */
  tag?: 'gifts';
  /** Search pages of 12 to read (at most 5). */
  pages?: number;
}

/** Most search pages one browse reads: a question about "the cheapest laptop" looks at the first 60 matches in that order. */
const MAX_BROWSE_PAGES = 5;

export interface ShopTools {
  /** The shop's own search (full text, then typo-tolerant); falls back to single words. */
  searchProducts(text: string, limit?: number): Promise<ProductFact[]>;
  /** The shop's search with its storefront order and filters, several pages (budgets, "cheapest", "newest"). */
  browse(opts: BrowseOptions): Promise<ProductFact[]>;
  /** An in-stock product of the same category at the closest price (for one that is out of stock), or null. */
  alternativeFor(p: ProductFact): Promise<ProductFact | null>;
  /** The shop's shipping rule for a destination (one function, later backed by the shipping settings). */
  shippingTo(countryCode: string): Promise<ShippingRule>;
  getMyOrders(userId: string, limit?: number): Promise<OrderFact[]>;
  faq(text: string): FaqEntry[];
  allFaq(): FaqEntry[];
}

function orderStatus(o: Order): string {
  if (o.status === 'cancelled') return `cancelled${o.cancelledAt ? ` on ${o.cancelledAt.slice(0, 10)}` : ''}${o.refundedAmount > 0 ? ` and refunded ($${o.refundedAmount.toFixed(2)})` : ''}`;
  if (o.status === 'refunded') return `refunded in full ($${o.refundedAmount.toFixed(2)})`;
  const refunded = o.status === 'partially_refunded' ? ` ($${o.refundedAmount.toFixed(2)} refunded)` : '';
  if (o.isDelivered) return `delivered on ${o.deliveredAt?.slice(0, 10)}${refunded}`;
  // A parcel on its way: the carrier shoppers know, its tracking number and link (issue 20; no supplier words, issue 34.4).
  const s = o.shipment;
  if (s?.status === 'Delivered') return `delivered${s.deliveredAt ? ` on ${s.deliveredAt.slice(0, 10)}` : ''}${refunded}`;
  if (s?.trackingNumber) {
    return `shipped${s.shippedAt ? ` on ${s.shippedAt.slice(0, 10)}` : ''}${s.carrier ? ` with ${s.carrier}` : ''}, tracking number ${s.trackingNumber}${s.trackingUrl ? ` (track it at ${s.trackingUrl})` : ''}`;
  }
  if (o.isPaid) return `paid on ${o.paidAt?.slice(0, 10)} and being prepared for delivery${refunded}`;
  if (o.isExpired) return 'expired without payment';
  return 'waiting for payment';
}

export function createShopTools(db: Executor): ShopTools {
  const cache = catalogueCacheFor(db);
  const run = async (query: string, extra: Record<string, string> = {}) => {
    const q = productSearchQuerySchema.parse({ query: query.slice(0, 100), ...extra });
    return searchProducts(db, cache, q);
  };
  /**
   * Facts of found products. Supplier products and own products with options sell per variant: each
   * one on sale is named with its own price and stock (and an own product's options with their values on sale).
   */
  const factsOf = async (found: Product[]): Promise<ProductFact[]> => {
    const facts = found.map(toFact);
    const variantIds = found.filter((p) => p.cjData || p.options?.length).map((p) => p._id);
    if (variantIds.length) {
      const rows = await findVariants(db, variantIds, { enabledOnly: true });
      for (const [i, fact] of facts.entries()) {
        const p = found[i]!;
        const mine = rows.filter((v) => v.productId.trim() === fact.id);
        if (p.options?.length && mine.length) {
          fact.options = p.options
            .map((o) => ({ name: o.name, values: o.values.filter((value) => mine.some((v) => v.options[o.name] === value)) }))
            .filter((o) => o.values.length);
        }
        if (mine.length < 2) continue;
        fact.variants = mine.map((v) => ({
          name: v.variantKey || v.name, price: v.price, finalPrice: variantFinalPrice(v, p), countInStock: v.countInStock,
        }));
      }
    }
    return facts;
  };
  return {
    async searchProducts(text, limit = 3) {
      const terms = searchTerms(text);
      if (!terms.length) return [];
      let found = (await run(terms.join(' '))).products;
      // "do you have red hedphones under 50" may match nothing as a whole: try the longest words alone.
      if (!found.length && terms.length > 1) {
        for (const word of [...terms].sort((a, b) => b.length - a.length).slice(0, 3)) {
          found = (await run(word)).products;
          if (found.length) break;
        }
      }
      return factsOf(found.slice(0, limit));
    },
    async browse(opts) {
      const pages = Math.min(MAX_BROWSE_PAGES, Math.max(1, opts.pages ?? 1));
      const found: Product[] = [];
      for (let page = 1; page <= pages; page += 1) {
        const res = await run(opts.query ?? '', { order: opts.order ?? 'newest', ...(opts.tag ? { tag: opts.tag } : {}), page: String(page) });
        found.push(...res.products);
        if (page >= res.pages) break;
      }
      return factsOf(found);
    },
    async alternativeFor(p) {
      const [row] = await db.select(productColumns).from(products)
        .where(and(isPublished, sql`${products.category} = ${p.category}`, gt(products.countInStock, 0), ne(products.id, p.id)))
        .orderBy(sql`abs(${products.finalPrice} - ${p.finalPrice}::numeric)`, asc(products.finalPrice), asc(products.id))
        .limit(1);
      return row ? (await factsOf([presentProduct(row)]))[0] ?? null : null;
    },
    shippingTo: (countryCode) => shippingRuleFor(db, countryCode),
    async getMyOrders(userId, limit = 3) {
      const mine = (await listMyOrders(db, userId)).sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, limit);
      return mine.map((o) => ({
        id: o._id, number: o.number, date: o.createdAt.slice(0, 10), total: o.totalPrice, isPaid: o.isPaid, paidAt: o.paidAt,
        isDelivered: o.isDelivered, deliveredAt: o.deliveredAt, items: o.orderItems.map((i) => i.name), status: orderStatus(o),
      }));
    },
    faq: (text) => matchFaq(text),
    allFaq: () => loadFaq(),
  };
}
