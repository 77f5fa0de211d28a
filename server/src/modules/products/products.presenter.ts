import type { Product, Review } from '@shop/contracts';
import { finalPrice } from '../../lib/money.ts';
import type { ProductRow } from './product-rows.ts';

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

/** What leaves the server for a product. `finalPrice` comes from the one shared price function. */
export function presentProduct(p: ProductRow, opts: { reviews?: ReviewRow[]; withDraftFlag?: boolean } = {}): Product {
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
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}
