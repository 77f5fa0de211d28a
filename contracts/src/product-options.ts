import { PRODUCT_FORM_MESSAGES as M } from './constants.ts';
import { finalPrice, MIN_UNIT_PRICE } from './money.ts';
import { parseWholeNumber } from './numbers.ts';
import { productFormSchema, type ProductOption, type ProductVariantInput } from './products.ts';

/**
 * Options and variants of the shop's own products (issue 34): up to three options (Size, Colour...)
 * with their values, and one variant per combination sold, each with its own price, stock, SKU,
 * image and on/off switch. The server (PUT products/{id}) and the admin form apply the same rules.
 */
export const MAX_PRODUCT_OPTIONS = 3;
export const MAX_OPTION_VALUES = 30;
export const MAX_PRODUCT_VARIANTS = 100;
export const OPTION_NAME_MAX = 30;
export const OPTION_VALUE_MAX = 40;
export const SKU_MAX = 64;
export const VARIANT_IMAGE_MAX = 2000;

export const PRODUCT_OPTION_MESSAGES = {
  tooManyOptions: `A product has at most ${MAX_PRODUCT_OPTIONS} options`,
  optionName: 'Option name is required',
  optionNameMax: `Option name must be at most ${OPTION_NAME_MAX} characters`,
  optionNameTaken: (name: string) => `Option '${name}' is declared twice`,
  optionValues: (name: string) => `Option '${name}' needs at least one value`,
  optionValuesMax: (name: string) => `Option '${name}' has more than ${MAX_OPTION_VALUES} values`,
  optionValueBlank: (name: string) => `Option '${name}' has an empty value`,
  optionValueMax: (name: string) => `Values of option '${name}' must be at most ${OPTION_VALUE_MAX} characters`,
  optionValueTaken: (name: string, value: string) => `Option '${name}' lists '${value}' twice`,
  variantsRequired: 'A product with options needs at least one variant',
  optionsRequired: 'Variants need options: declare the options (such as Size) first',
  tooManyVariants: `A product has at most ${MAX_PRODUCT_VARIANTS} variants`,
  sendTogether: 'Options and variants are sent together',
  variantOptionMissing: (label: string, name: string) => `${label} has no value for option '${name}'`,
  variantOptionUnknown: (label: string, name: string) => `${label} names '${name}', which is not an option of this product`,
  variantValueUnknown: (label: string, name: string, value: string) => `${label}: '${value}' is not a value of option '${name}'`,
  variantTaken: (name: string) => `Two variants are both '${name}'`,
  variantId: (label: string) => `${label} names a variant this product does not have`,
  variantStockRequired: 'Count in stock is required for a new variant',
  skuMax: `SKU must be at most ${SKU_MAX} characters`,
  skuTaken: (sku: string) => `SKU '${sku}' is used by two variants`,
  imageMax: `Image must be at most ${VARIANT_IMAGE_MAX} characters`,
  /** PUT on a supplier (CJ) product. */
  supplierVariants: 'Variants of a supplier product are set in the supplier catalogue (Admin → CJ Products)',
  /** The product's own price and stock, when it has options. */
  priceIsPerVariant: 'Price of a product with options is set per variant',
  stockIsPerVariant: "Count in stock of a product with options is the sum of its variants' stock: set it per variant",
  /** 409: removing every option while some variants have orders. */
  orderedVariants: 'Options cannot be removed while variants have orders: switch those variants off instead',
} as const;

/** 400 code of a product field that a product with options sets per variant (price, stock). */
export const VARIANT_PRODUCT_FIELDS_CODE = 'VARIANT_PRODUCT_FIELDS';
/** 409 code of removing the options of a product whose variants have orders. */
export const VARIANTS_HAVE_ORDERS_CODE = 'VARIANTS_HAVE_ORDERS';

/** A variant's name: its option values in the options' order ("M / Red"). */
export const variantNameOf = (options: readonly ProductOption[], values: Record<string, string>): string =>
  options.map((o) => values[o.name] ?? '').join(' / ');

/** The key that tells combinations apart (case-insensitive). */
export const combinationKey = (options: readonly ProductOption[], values: Record<string, string>): string =>
  options.map((o) => (values[o.name] ?? '').toLowerCase()).join('\u0000');

/** Every combination of the options' values, in order (S/Red, S/Blue, M/Red...): the variant table's rows. */
export function optionCombinations(options: readonly ProductOption[]): Array<Record<string, string>> {
  let rows: Array<Record<string, string>> = [{}];
  for (const o of options) rows = rows.flatMap((row) => o.values.map((v) => ({ ...row, [o.name]: v })));
  return options.length ? rows : [];
}

export interface ParsedVariant {
  _id: string | null;
  /** Its value of each option, spelt as declared. */
  options: Record<string, string>;
  /** "M / Red" */
  name: string;
  price: number;
  /** null: an existing variant keeps its stock. */
  countInStock: number | null;
  countInStockWas: number | undefined;
  sku: string;
  image: string;
  enabled: boolean;
}

export type ParsedProductVariants =
  | { ok: true; options: ProductOption[]; variants: ParsedVariant[] }
  | { ok: false; message: string; fieldErrors: Record<string, string> };

// The product's own field rules and messages: one parser for money and one for stock counts.
const priceField = productFormSchema.in.shape.price;
const stockField = productFormSchema.in.shape.countInStock;

const ID = /^[0-9a-f]{24}$/;
const lower = (s: string) => s.toLowerCase();

/**
 * Checks and normalises options and variants (names and values trimmed, matched case-insensitively
 * and spelt as declared): at most 3 options with unique names, each with unique values; every
 * variant has exactly one declared value of each option; no combination twice; prices and stock
 * by the product form's own rules (and the sale discount must leave each variant at least $0.01);
 * SKUs unique. Errors are keyed by path (`options.0.name`, `variants.2.price`), the first one is
 * the message.
 */
export function parseProductVariants(input: {
  options: ReadonlyArray<{ name?: string | null; values?: readonly string[] | null }>;
  variants: readonly ProductVariantInput[];
  isOnSale: boolean;
  saleDiscount: number;
}): ParsedProductVariants {
  const fieldErrors: Record<string, string> = {};
  const fail = (key: string, message: string) => { fieldErrors[key] ??= message; };
  const T = PRODUCT_OPTION_MESSAGES;

  if (input.options.length > MAX_PRODUCT_OPTIONS) fail('options', T.tooManyOptions);
  const options: ProductOption[] = [];
  const names = new Set<string>();
  input.options.slice(0, MAX_PRODUCT_OPTIONS).forEach((raw, i) => {
    const name = (raw.name ?? '').trim();
    if (!name) return fail(`options.${i}.name`, T.optionName);
    if (name.length > OPTION_NAME_MAX) return fail(`options.${i}.name`, T.optionNameMax);
    if (names.has(lower(name))) return fail(`options.${i}.name`, T.optionNameTaken(name));
    names.add(lower(name));
    const values: string[] = [];
    const seen = new Set<string>();
    for (const v of raw.values ?? []) {
      const value = v.trim();
      if (!value) { fail(`options.${i}.values`, T.optionValueBlank(name)); continue; }
      if (value.length > OPTION_VALUE_MAX) { fail(`options.${i}.values`, T.optionValueMax(name)); continue; }
      if (seen.has(lower(value))) { fail(`options.${i}.values`, T.optionValueTaken(name, value)); continue; }
      seen.add(lower(value));
      values.push(value);
    }
    if (!raw.values?.length) fail(`options.${i}.values`, T.optionValues(name));
    else if (values.length > MAX_OPTION_VALUES) fail(`options.${i}.values`, T.optionValuesMax(name));
    options.push({ name, values });
  });
  if (Object.keys(fieldErrors).length) return failure(fieldErrors);

  if (options.length && !input.variants.length) fail('variants', T.variantsRequired);
  if (!options.length && input.variants.length) fail('variants', T.optionsRequired);
  if (input.variants.length > MAX_PRODUCT_VARIANTS) fail('variants', T.tooManyVariants);
  if (Object.keys(fieldErrors).length) return failure(fieldErrors);

  const variants: ParsedVariant[] = [];
  const labels: string[] = [];
  const combos = new Set<string>();
  const skus = new Set<string>();
  input.variants.forEach((raw, i) => {
    const at = `variants.${i}`;
    let label = `Variant ${i + 1}`;
    const given = new Map(Object.entries(raw.options).map(([k, v]) => [lower(k.trim()), { key: k.trim(), value: v.trim() }]));
    const values: Record<string, string> = {};
    let valid = true;
    for (const o of options) {
      const got = given.get(lower(o.name));
      given.delete(lower(o.name));
      const value = got ? o.values.find((v) => lower(v) === lower(got.value)) : undefined;
      if (!got || !got.value) { fail(`${at}.options`, T.variantOptionMissing(label, o.name)); valid = false; continue; }
      if (!value) { fail(`${at}.options`, T.variantValueUnknown(label, o.name, got.value)); valid = false; continue; }
      values[o.name] = value;
    }
    for (const extra of given.values()) { fail(`${at}.options`, T.variantOptionUnknown(label, extra.key)); valid = false; }
    if (valid) {
      label = variantNameOf(options, values);
      const key = combinationKey(options, values);
      if (combos.has(key)) fail(`${at}.options`, T.variantTaken(label));
      combos.add(key);
    }
    labels[i] = label;
    const id = raw._id?.trim() || null;
    if (id !== null && !ID.test(id)) fail(`${at}._id`, T.variantId(label));

    const price = priceField.safeParse(raw.price ?? undefined);
    if (!price.success) fail(`${at}.price`, price.error.issues[0]?.message ?? M.price);
    else if (input.isOnSale && finalPrice({ price: price.data, isOnSale: true, saleDiscount: input.saleDiscount }) < MIN_UNIT_PRICE) {
      fail(`${at}.price`, M.finalPriceMin);
    }
    let countInStock: number | null = null;
    if (raw.countInStock === undefined || raw.countInStock === null) {
      if (id === null) fail(`${at}.countInStock`, T.variantStockRequired);
    } else {
      const stock = stockField.safeParse(raw.countInStock ?? undefined);
      if (stock.success) countInStock = stock.data;
      else fail(`${at}.countInStock`, stock.error.issues[0]?.message ?? M.countInStock);
    }
    const sku = (raw.sku ?? '').trim();
    if (sku.length > SKU_MAX) fail(`${at}.sku`, T.skuMax);
    else if (sku && skus.has(lower(sku))) fail(`${at}.sku`, T.skuTaken(sku));
    if (sku) skus.add(lower(sku));
    const image = (raw.image ?? '').trim();
    if (image.length > VARIANT_IMAGE_MAX) fail(`${at}.image`, T.imageMax);

    let countInStockWas: number | undefined;
    if (raw.countInStockWas !== undefined) {
      const was = parseWholeNumber(raw.countInStockWas);
      if (was.ok && was.value >= 0) countInStockWas = was.value;
      else fail(`${at}.countInStockWas`, 'Count in stock was must be a whole number');
    }

    variants.push({
      _id: id, options: values, name: label, price: price.success ? price.data : 0, countInStock,
      countInStockWas, sku, image, enabled: raw.enabled ?? true,
    });
  });
  if (Object.keys(fieldErrors).length) return failure(fieldErrors, labels);
  return { ok: true, options, variants };
}

/** The first error is the message; a variant's price or stock error names the variant ("M / Red: Price must be..."). */
function failure(fieldErrors: Record<string, string>, labels: string[] = []): ParsedProductVariants {
  const [key, first] = Object.entries(fieldErrors)[0]!;
  const m = /^variants\.(\d+)\.(price|countInStock|image)$/.exec(key);
  const message = m ? `${labels[Number(m[1])] ?? `Variant ${Number(m[1]) + 1}`}: ${first}` : first;
  return { ok: false, message, fieldErrors };
}
