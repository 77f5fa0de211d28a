import type { CartItem, Product } from '@shop/contracts';
import { products } from '../../db/schema.ts';
import { finalPrice } from '../../lib/money.ts';

/** The product columns a cart line (and an order line) needs; never the search vector. */
export const cartProductColumns = {
  id: products.id,
  name: products.name,
  slug: products.slug,
  price: products.price,
  image: products.image,
  images: products.images,
  category: products.category,
  brand: products.brand,
  countInStock: products.countInStock,
  description: products.description,
  rating: products.rating,
  numReviews: products.numReviews,
  isTodaysDeal: products.isTodaysDeal,
  isGift: products.isGift,
  isOnSale: products.isOnSale,
  saleDiscount: products.saleDiscount,
  cjData: products.cjData,
  isDraft: products.isDraft,
  createdAt: products.createdAt,
  updatedAt: products.updatedAt,
};

export interface CartProductRow {
  id: string;
  name: string;
  slug: string;
  price: number;
  image: string;
  images: string[];
  category: string;
  brand: string;
  countInStock: number;
  description: string;
  rating: number;
  numReviews: number;
  isTodaysDeal: boolean;
  isGift: boolean;
  isOnSale: boolean;
  saleDiscount: number;
  cjData: Product['cjData'];
  isDraft: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export function presentCartProduct(p: CartProductRow): Product {
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
    isTodaysDeal: p.isTodaysDeal,
    isGift: p.isGift,
    isOnSale: p.isOnSale,
    saleDiscount: p.saleDiscount,
    cjData: p.cjData ?? null,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

/** A cart line with live price and stock. `price` is what the shopper pays per unit. */
export function presentCartItem(p: CartProductRow, quantity: number): CartItem {
  const product = presentCartProduct(p);
  return {
    _id: p.id,
    product,
    name: p.name,
    slug: p.slug,
    image: p.image,
    price: product.finalPrice,
    countInStock: p.countInStock,
    quantity,
    isOnSale: p.isOnSale,
    saleDiscount: p.saleDiscount,
    isTodaysDeal: p.isTodaysDeal,
    isGift: p.isGift,
    cjData: p.cjData ?? null,
  };
}
