import { chatProductLink } from '@shop/contracts/chat-constants';
import type { ProductFact } from './shop-tools.ts';

/** "$14.50", "$1,149.00". */
export const money = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** The product's name as a link to its page (the widget shows it as a link, CHAT_PRODUCT_LINK_PATTERN). */
export const productLink = (p: Pick<ProductFact, 'name' | 'link'>) => chatProductLink(p.name, p.link);

export function describePrice(p: ProductFact): string {
  return p.isOnSale ? `${money(p.finalPrice)} (${p.saleDiscount}% OFF, was ${money(p.price)})` : money(p.finalPrice);
}

export function describeStock(p: Pick<ProductFact, 'countInStock'>): string {
  if (p.countInStock <= 0) return 'currently out of stock';
  if (p.countInStock <= 5) return `in stock (only ${p.countInStock} left)`;
  return `in stock (${p.countInStock} available)`;
}

/** "rated 4.3 of 5 from 3 reviews", or "no reviews yet": a product without reviews has no rating to compare. */
export function describeRating(p: Pick<ProductFact, 'rating' | 'numReviews'>): string {
  if (p.numReviews <= 0) return 'no reviews yet';
  return `rated ${p.rating.toFixed(1)} of 5 from ${p.numReviews} review${p.numReviews === 1 ? '' : 's'}`;
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

/** "[Nova X5 Smartphone](/product/nova-x5-smartphone) by Nova: $699.00, in stock (12 available)." */
export function describeProduct(p: ProductFact): string {
  const variants = describeVariants(p);
  const options = describeOptions(p);
  if (options) return `${productLink(p)} by ${p.brand}: ${options}. ${variants || `${describePrice(p)}, ${describeStock(p)}.`}`;
  if (variants) return `${productLink(p)} by ${p.brand}: ${variants}`;
  return `${productLink(p)} by ${p.brand}: ${describePrice(p)}, ${describeStock(p)}.`;
}
