import type { Product, Review } from '@shop/contracts';
import { finalPrice } from '../../lib/money.ts';
import { hasOptions, type ProductRow } from './product-rows.ts';
import { presentSellableVariant, type VariantRow } from './product-variants.ts';

export interface ReviewRow {
  id: string;
  name: string;
  rating: number;
  comment: string;
  createdAt: Date;
}

export function presentReview(r: ReviewRow): Review {
  return { _id: r.id, name: r.name, rating: r.rating, comment: r.comment, createdAt: r.createdAt.toISOString() };
}

/**
 * The options of a product with options, and the range of prices its variants on sale are paid at
 * when they differ ("From $X"). Nothing for a product without options: its answer is as before.
 */
function presentOptions(p: ProductRow, variants: VariantRow[] | undefined): Partial<Product> {
  if (!hasOptions(p)) return {};
  const min = finalPrice(p);
  const max = p.variantPriceMax === null ? min : finalPrice({ ...p, price: p.variantPriceMax });
  return {
    options: p.options,
    ...(max > min ? { priceRange: { min, max } } : {}),
    ...(variants ? { productVariants: variants.map((v) => presentSellableVariant(v, p)) } : {}),
  };
}

/**
 * What leaves the server for a product. `finalPrice` comes from the one shared price function.
 * `variants`: an own product's variants to list (one product's page; listings leave them out).
 */
export function presentProduct(p: ProductRow, opts: { reviews?: ReviewRow[]; withDraftFlag?: boolean; variants?: VariantRow[] } = {}): Product {
  return {
    _id: p.id,
    name: p.name,
    slug: p.slug,
    price: p.price,
    finalPrice: finalPrice(p),
    image: p.image,
    images: p.images,
    category: p.category,
    brand: p.brand,
    countInStock: p.countInStock,
    description: p.description,
    rating: p.rating,
    numReviews: p.numReviews,
    ...(opts.reviews ? { reviews: opts.reviews.map(presentReview) } : {}),
    isTodaysDeal: p.isTodaysDeal,
    isGift: p.isGift,
    isOnSale: p.isOnSale,
    saleDiscount: p.saleDiscount,
    cjData: p.cjData ?? null,
    ...(opts.withDraftFlag ? { isDraft: p.isDraft } : {}),
    ...presentOptions(p, opts.variants),
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}
