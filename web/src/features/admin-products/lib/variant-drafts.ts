import {
  optionCombinations, parseProductVariants, variantNameOf, type Product, type ProductOption, type ProductVariantInput,
} from '@shop/contracts';
import { parseMoney, parseWholeNumber } from '@shop/contracts/numbers';

/**
 * The product form's options and variants (issue 34) as the administrator edits them: the options
 * with their values, and what was typed for each combination of values. A combination is keyed by
 * its values in the options' order (not by the options' names), so renaming an option keeps the
 * rows, and a value removed then added again gets back what was typed for it.
 */
export interface OptionDraft {
  /** A stable key for the list (not sent). */
  key: string;
  name: string;
  values: string[];
}

/** One combination's inputs, as typed (a half-typed number stays as typed). */
export interface VariantDraft {
  /** The stored variant (null: a new one). */
  _id: string | null;
  price: string;
  countInStock: string;
  /** The stock the form loaded for a stored variant: a changed stock is sent with it (409 if orders changed it since). */
  stockWas: number | null;
  sku: string;
  image: string;
  enabled: boolean;
}

export interface VariantsState {
  options: OptionDraft[];
  drafts: Record<string, VariantDraft>;
}

/** A row of the variant table: one combination of the options' values. */
export interface VariantRowDraft {
  key: string;
  /** Its value of each option, by the option's name. */
  values: Record<string, string>;
  /** "M / Red" */
  label: string;
  draft: VariantDraft;
}

let optionKeys = 0;
export const newOptionKey = () => `option-${(optionKeys += 1)}`;

const keyOf = (values: string[]) => values.map((v) => v.trim().toLowerCase()).join('\u0000');

/** The options that make rows: a name and at least one value. */
export const completeOptions = (options: OptionDraft[]): ProductOption[] =>
  options.filter((o) => o.name.trim() && o.values.length).map((o) => ({ name: o.name.trim(), values: o.values }));

/** The form's starting point: the product's options and every stored variant (switched-off ones too). */
export function initialVariants(product: Product): VariantsState {
  const options = (product.options ?? []).map((o) => ({ key: newOptionKey(), name: o.name, values: [...o.values] }));
  const drafts: Record<string, VariantDraft> = {};
  for (const v of product.productVariants ?? []) {
    if (!v.options || options.some((o) => !v.options![o.name])) continue;
    drafts[keyOf(options.map((o) => v.options![o.name]!))] = {
      _id: v._id, price: String(v.price), countInStock: String(v.countInStock), stockWas: v.countInStock,
      sku: v.sku ?? '', image: v.image, enabled: v.enabled,
    };
  }
  return { options, drafts };
}

/** A new combination's inputs: the product's price, no stock, on sale. */
export const newDraft = (price: string): VariantDraft => ({ _id: null, price, countInStock: '0', stockWas: null, sku: '', image: '', enabled: true });

/**
 * The state with inputs for every combination the options now make: a new combination starts at
 * `price` (kept as it is once made, so editing one row never moves another).
 */
export function fillDrafts(state: VariantsState, price: string): VariantsState {
  const options = completeOptions(state.options);
  const missing = optionCombinations(options).map((values) => keyOf(options.map((o) => values[o.name]!))).filter((key) => !state.drafts[key]);
  if (!missing.length) return state;
  const drafts = { ...state.drafts };
  for (const key of missing) drafts[key] = newDraft(price);
  return { ...state, drafts };
}

/** One row per combination of the complete options' values, in order (S / Red, S / Blue, M / Red...). */
export function variantRows(state: VariantsState, defaultPrice: string): VariantRowDraft[] {
  const options = completeOptions(state.options);
  return optionCombinations(options).map((values) => {
    const key = keyOf(options.map((o) => values[o.name]!));
    return { key, values, label: variantNameOf(options, values), draft: state.drafts[key] ?? newDraft(defaultPrice) };
  });
}

/** Splits typed values ("S, M, L") into new values of an option: trimmed, without blanks or repeats (case-insensitive). */
export function addValues(existing: string[], typed: string): string[] {
  const seen = new Set(existing.map((v) => v.toLowerCase()));
  const added: string[] = [];
  for (const part of typed.split(',')) {
    const value = part.trim();
    if (!value || seen.has(value.toLowerCase())) continue;
    seen.add(value.toLowerCase());
    added.push(value);
  }
  return [...existing, ...added];
}

const asInput = (text: string): string => text.trim();

/** The variants as PUT products/{id} takes them: a stored variant's stock only when changed (with the stock loaded). */
export function toVariantInputs(rows: VariantRowDraft[]): ProductVariantInput[] {
  return rows.map(({ values, draft }) => {
    const stockChanged = draft.stockWas === null || asInput(draft.countInStock) !== String(draft.stockWas);
    return {
      ...(draft._id ? { _id: draft._id } : {}),
      options: values,
      price: asInput(draft.price),
      ...(stockChanged ? { countInStock: asInput(draft.countInStock) } : {}),
      ...(stockChanged && draft.stockWas !== null ? { countInStockWas: draft.stockWas } : {}),
      sku: draft.sku.trim(),
      image: draft.image,
      enabled: draft.enabled,
    };
  });
}

/**
 * What a save sends for options and variants: nothing for a product that had none and still has
 * none (its save is as before), `[]` and `[]` to remove them, else the options and one variant per row.
 */
export function variantsBody(state: VariantsState, rows: VariantRowDraft[], hadOptions: boolean): { options?: ProductOption[]; variants?: ProductVariantInput[] } {
  if (!state.options.length) return hadOptions ? { options: [], variants: [] } : {};
  return { options: state.options.map((o) => ({ name: o.name, values: o.values })), variants: toVariantInputs(rows) };
}

/** The server's rules, checked in the browser: errors keyed `options.0.name`, `variants.2.price`... (none when fine). */
export function checkVariants(state: VariantsState, rows: VariantRowDraft[], sale: { isOnSale: boolean; saleDiscount: number }): Record<string, string> {
  if (!state.options.length) return {};
  const parsed = parseProductVariants({
    options: state.options.map((o) => ({ name: o.name, values: o.values })),
    variants: toVariantInputs(rows),
    isOnSale: sale.isOnSale,
    saleDiscount: sale.saleDiscount,
  });
  return parsed.ok ? {} : parsed.fieldErrors;
}

/** The lowest price and the stock of the rows on sale (the product's own price and stock); null when no price is valid yet. */
export function variantTotals(rows: VariantRowDraft[]): { lowest: number | null; highest: number | null; stock: number } {
  const on = rows.filter((r) => r.draft.enabled);
  const prices = (on.length ? on : rows).flatMap((r) => {
    const p = parseMoney(r.draft.price);
    return p.ok && p.value > 0 ? [p.value] : [];
  });
  const stock = on.reduce((sum, r) => {
    const n = parseWholeNumber(r.draft.countInStock);
    return sum + (n.ok && n.value > 0 ? n.value : 0);
  }, 0);
  return { lowest: prices.length ? Math.min(...prices) : null, highest: prices.length ? Math.max(...prices) : null, stock };
}
