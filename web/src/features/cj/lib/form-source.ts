import type { CjProduct, CjSavedItem } from '@shop/contracts';
import { CJ_DEFAULT_STOCK, SAVED_PRODUCT_ID_PATTERN } from '@shop/contracts/supplier-constants';
import { productToFormValues, type ProductFormValues } from '../../../lib/product-form';

/** What the supplier edit form starts from, whether loaded from the supplier or from a saved product. */
export interface CjFormSource {
  /** The supplier's product id ('' when unknown: 'Product ID is missing'). */
  pid: string;
  /** The variant preselected ('' when the product has none: 'Product variant ID is missing'). */
  vid: string;
  variants: Array<{ vid: string; name: string; image: string; cost: number | null }>;
  /** The supplier's images, offered for the main and additional images. */
  supplierImages: string[];
  initial: ProductFormValues;
  /** Our product id when it is saved already. */
  savedId: string | null;
  /** What the supplier charges for the preselected variant, when known. */
  supplierCost: number | null;
  isDiscontinued: boolean;
}

/** The brand starts empty: the supplier's name is not the product's brand (issue 23); the form asks for one. */
export const DEFAULT_BRAND = '';

/** A 24-character identifier marks an already-saved product (SPEC section 4). */
export const isSavedProductId = (id: string) => SAVED_PRODUCT_ID_PATTERN.test(id);

/** The slug the shop derives from the lower-cased English name. */
export const slugFromName = (name: string) =>
  name.toLowerCase().replace(/&/g, 'and').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 180);

export const lastCategoryLevel = (name: string) => (name.split(/\s*[>/]\s*/).filter(Boolean).pop() ?? '').trim();

/** An unsaved supplier product: the spec's defaults (slug from the name, stock 100, price from sellPrice). */
export function fromSupplierProduct(p: CjProduct, saved?: CjSavedItem): CjFormSource {
  const costs = new Map(p.variants.map((v) => [v.vid, v.variantSellPrice]));
  const vid = saved && costs.has(saved.vid) ? saved.vid : (p.variants[0]?.vid ?? '');
  return {
    pid: p.pid,
    vid,
    variants: p.variants.map((v) => ({ vid: v.vid, name: v.variantKey || v.variantNameEn, image: v.variantImage, cost: v.variantSellPrice })),
    supplierImages: p.productImageSet,
    initial: saved
      ? productToFormValues(saved)
      : {
          name: p.productNameEn,
          slug: slugFromName(p.productNameEn),
          price: p.price,
          image: p.bigImage,
          images: p.productImageSet.filter((src) => src !== p.bigImage),
          category: lastCategoryLevel(p.categoryName),
          brand: DEFAULT_BRAND,
          countInStock: CJ_DEFAULT_STOCK,
          description: p.description,
          isTodaysDeal: false,
          isGift: false,
          isOnSale: false,
          saleDiscount: 0,
        },
    savedId: saved?._id ?? p.savedProductId,
    supplierCost: costs.get(vid) ?? null,
    isDiscontinued: Boolean(saved?.supplierDiscontinuedAt),
  };
}

/** A saved product loaded by its id: its own values and the variants kept with it. */
export function fromSavedItem(p: CjSavedItem): CjFormSource {
  return {
    pid: p.pid,
    vid: p.vid,
    variants: p.variants.map((v) => ({ vid: v.vid, name: v.variantKey || v.variantNameEn, image: v.variantImage, cost: v.vid === p.vid ? p.supplierCost : null })),
    supplierImages: [...new Set([p.bigImage, p.image, ...p.images].filter(Boolean))],
    initial: productToFormValues(p),
    savedId: p._id,
    supplierCost: p.supplierCost,
    isDiscontinued: Boolean(p.supplierDiscontinuedAt),
  };
}
