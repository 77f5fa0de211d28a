import type { CjListItem, CjProduct, CjPublicProduct, CjSavedItem, CjStoredVariant, CjVariant, Product } from '@shop/contracts';
import { products } from '../../db/schema.ts';
import { finalPrice, roundMoney } from '../../lib/money.ts';
import { presentProduct, productColumns, type ProductRow } from '../products/index.ts';
import { firstPrice, parseImageList, type CjListProduct, type CjProductData, type CjVariantData } from './cj-types.ts';

/** What a saved supplier product keeps in `products.cj_data`. */
export interface StoredCjData {
  pid: string;
  /** The variant we sell. */
  vid: string;
  source: 'cj' | 'offline';
  productNameEn: string;
  productSku: string;
  categoryId: string;
  categoryName: string;
  bigImage: string;
  /** Without costs: cjData reaches shoppers with the product. */
  variants: CjStoredVariant[];
  [key: string]: unknown;
}

/** The product columns plus the supplier columns a saved supplier product is read with. */
export const savedColumns = {
  ...productColumns,
  supplierCost: products.supplierCost,
  supplierDiscontinuedAt: products.supplierDiscontinuedAt,
  supplierSyncedAt: products.supplierSyncedAt,
  supplierBelowCostAt: products.supplierBelowCostAt,
};
export type SavedRow = ProductRow & {
  supplierCost: number | null;
  supplierDiscontinuedAt: Date | null;
  supplierSyncedAt: Date | null;
  supplierBelowCostAt: Date | null;
};

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** The supplier's HTML description as plain text (the shop renders descriptions as text). */
export function htmlToText(html: string, max = 5000): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h\d)>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|[a-z]+);/gi, (m, e: string) => ENTITIES[e.toLowerCase()] ?? (e.startsWith('#') ? String.fromCharCode(Number(e.slice(1))) : m))
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .filter(Boolean)
    .join('\n')
    .slice(0, max)
    .trim();
}

/** "Home > Kitchen > Drinkware & Kitchen" -> "Drinkware & Kitchen" (our category is the last level). */
export const lastCategoryLevel = (name: string) => (name.split(/\s*[>/]\s*/).filter(Boolean).pop() ?? '').trim();

const priceOf = (value: string | number | null | undefined) => {
  const n = firstPrice(value ?? '');
  return Number.isFinite(n) ? roundMoney(n) : 0;
};

export function presentVariant(v: CjVariantData, fallbackPrice: number): CjVariant {
  const price = firstPrice(v.variantSellPrice ?? '');
  return {
    vid: v.vid,
    variantNameEn: v.variantNameEn,
    variantSku: v.variantSku,
    variantKey: v.variantKey,
    variantImage: v.variantImage,
    variantSellPrice: Number.isFinite(price) ? roundMoney(price) : fallbackPrice,
  };
}

export function productImages(p: Pick<CjProductData, 'productImageSet' | 'productImage' | 'bigImage'>): string[] {
  const set = p.productImageSet.length ? p.productImageSet : parseImageList(p.productImage);
  const all = p.bigImage && !set.includes(p.bigImage) ? [p.bigImage, ...set] : set;
  return [...new Set(all)];
}

export function presentListItem(p: CjListProduct, savedIds: Map<string, string>): CjListItem {
  const images = parseImageList(p.productImage);
  return {
    pid: p.pid,
    productId: p.pid,
    productNameEn: p.productNameEn,
    productSku: p.productSku,
    productImage: JSON.stringify(images),
    bigImage: images[0] ?? '',
    sellPrice: p.sellPrice,
    price: priceOf(p.sellPrice),
    categoryId: p.categoryId,
    categoryName: p.categoryName,
    isSaved: savedIds.has(p.pid),
    savedProductId: savedIds.get(p.pid) ?? null,
  };
}

export function presentSupplierProduct(p: CjProductData, savedId: string | null): CjProduct {
  const images = productImages(p);
  const price = priceOf(p.sellPrice);
  return {
    pid: p.pid,
    productId: p.pid,
    productNameEn: p.productNameEn,
    productSku: p.productSku,
    productImage: JSON.stringify(images),
    productImageSet: images,
    bigImage: images[0] ?? '',
    sellPrice: p.sellPrice,
    price,
    categoryId: p.categoryId,
    categoryName: p.categoryName,
    description: htmlToText(p.description),
    variants: p.variants.map((v) => presentVariant(v, price)),
    isSaved: savedId !== null,
    savedProductId: savedId,
  };
}

const cjDataOf = (row: ProductRow) => (row.cjData ?? { pid: '', vid: '', variants: [] }) as unknown as Partial<StoredCjData> & { pid: string };

export function presentSavedItem(row: SavedRow): CjSavedItem {
  const cj = cjDataOf(row);
  const sell = finalPrice(row);
  const margin = row.supplierCost === null ? null : roundMoney(sell - row.supplierCost);
  // A supplier product has no options: its variants are listed with their costs (presentSavedItems).
  const { productVariants: _none, ...product } = presentProduct(row, { withDraftFlag: true });
  return {
    ...product,
    isSaved: true,
    pid: cj.pid,
    vid: cj.vid ?? cj.variants?.[0]?.vid ?? '',
    nameEn: cj.productNameEn ?? row.name,
    bigImage: cj.bigImage ?? row.image,
    variants: cj.variants ?? [],
    supplierCategoryId: cj.categoryId ?? '',
    supplierCost: row.supplierCost,
    margin,
    marginPercent: margin === null || sell <= 0 ? null : Math.round((margin / sell) * 1000) / 10,
    supplierDiscontinuedAt: row.supplierDiscontinuedAt?.toISOString() ?? null,
    supplierSyncedAt: row.supplierSyncedAt?.toISOString() ?? null,
    supplierBelowCostAt: row.supplierBelowCostAt?.toISOString() ?? null,
  };
}

/** The public page: the product with its reviews and the variants (without our costs). */
export function presentPublicProduct(product: Product, row: SavedRow): CjPublicProduct {
  const cj = cjDataOf(row);
  return {
    ...product,
    isSaved: true,
    vid: cj.vid ?? '',
    variants: cj.variants ?? [],
    isDiscontinued: row.supplierDiscontinuedAt !== null,
  };
}
