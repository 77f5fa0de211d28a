import { applyPricingRule, DEFAULT_MARKUP_PERCENT, type CjProductResponse, type CjSavedItem, type PricingRule, type SavedVariant } from '@shop/contracts';
import { slugFromName } from '@shop/contracts/slugs';
import { CJ_DEFAULT_STOCK, SAVED_PRODUCT_ID_PATTERN, SUPPLIER_DEFAULT_BRAND } from '@shop/contracts/supplier-constants';
import { productToFormValues, type ProductFormValues } from '../../../lib/product-form';

/** What the supplier edit form starts from, whether loaded from the supplier or from a saved product. */
export interface CjFormSource {
  /** The supplier's product id ('' when unknown: 'Product ID is missing'). */
  pid: string;
  /** The variant preselected ('' when the product has none: 'Product variant ID is missing'). */
  vid: string;
  /** Every supplier variant with our price, stock and on/off (the rule's price and the default stock for new ones). */
  variants: FormVariant[];
  /** The supplier's images, offered for the main and additional images. */
  supplierImages: string[];
  initial: ProductFormValues;
  /** The supplier's category path ('' when unknown), shown beside the shop's category. */
  supplierCategory: string;
  /** Our product id when it is saved already. */
  savedId: string | null;
  /** What the supplier charges for the preselected variant, when known. */
  supplierCost: number | null;
  isDiscontinued: boolean;
}

export interface FormVariant {
  vid: string;
  name: string;
  image: string;
  cost: number | null;
  price: number | null;
  countInStock: number;
  enabled: boolean;
}

/** The rule the server starts from when none is saved (and the editor's when it cannot load it). */
export const DEFAULT_PRICING_RULE: PricingRule = { markupPercent: DEFAULT_MARKUP_PERCENT, fixedAmount: 0, rounding: '.99' };

const savedVariantOf = (saved: CjSavedItem | undefined, vid: string): SavedVariant | undefined => saved?.productVariants?.find((v) => v.vid === vid);

/** A 24-character identifier marks an already-saved product (SPEC section 4). */
export const isSavedProductId = (id: string) => SAVED_PRODUCT_ID_PATTERN.test(id);


/** An unsaved supplier product: the spec's defaults (slug from the name, stock 100, price from sellPrice). */
export function fromSupplierProduct(p: CjProductResponse, saved?: CjSavedItem, rule: PricingRule = DEFAULT_PRICING_RULE): CjFormSource {
  const costs = new Map(p.variants.map((v) => [v.vid, v.variantSellPrice]));
  const vid = saved && costs.has(saved.vid) ? saved.vid : (p.variants[0]?.vid ?? '');
  // A new import starts at the pricing rule's price for the chosen variant's cost, not at the cost.
  const chosenCost = costs.get(vid);
  const rulePrice = chosenCost !== undefined && chosenCost > 0 ? applyPricingRule(chosenCost, rule) : p.price;
  return {
    pid: p.pid,
    vid,
    variants: p.variants.map((v) => {
      const mine = savedVariantOf(saved, v.vid);
      return {
        vid: v.vid, name: v.variantKey || v.variantNameEn, image: v.variantImage, cost: v.variantSellPrice,
        price: mine?.price ?? (v.variantSellPrice > 0 ? applyPricingRule(v.variantSellPrice, rule) : null),
        countInStock: mine?.countInStock ?? CJ_DEFAULT_STOCK, enabled: mine?.enabled ?? true,
      };
    }),
    supplierImages: p.productImageSet,
    initial: saved
      ? productToFormValues(saved)
      : {
          name: p.productNameEn,
          slug: slugFromName(p.productNameEn),
          price: rulePrice,
          image: p.bigImage,
          images: p.productImageSet.filter((src) => src !== p.bigImage),
          // The closest of the shop's categories; when none is close the administrator chooses (or
          // creates one on purpose), the supplier's own path shown beside the field.
          category: p.suggestedCategory.isExisting ? p.suggestedCategory.category : '',
          brand: SUPPLIER_DEFAULT_BRAND,
          countInStock: CJ_DEFAULT_STOCK,
          description: p.description,
          isTodaysDeal: false,
          isGift: false,
          isOnSale: false,
          saleDiscount: 0,
        },
    supplierCategory: p.categoryName,
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
    variants: p.variants.map((v) => {
      const mine = savedVariantOf(p, v.vid);
      return {
        vid: v.vid, name: v.variantKey || v.variantNameEn, image: mine?.image || v.variantImage,
        cost: mine?.supplierCost ?? (v.vid === p.vid ? p.supplierCost : null),
        price: mine?.price ?? null, countInStock: mine?.countInStock ?? CJ_DEFAULT_STOCK, enabled: mine?.enabled ?? true,
      };
    }),
    supplierImages: [...new Set([p.bigImage, p.image, ...p.images].filter(Boolean))],
    initial: productToFormValues(p),
    supplierCategory: '',
    savedId: p._id,
    supplierCost: p.supplierCost,
    isDiscontinued: Boolean(p.supplierDiscontinuedAt),
  };
}
