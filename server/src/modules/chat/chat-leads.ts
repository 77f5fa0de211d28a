import type { LeadInterestLevel, LeadProductOfInterest } from '../../db/schema.ts';

const HIGH = /\b(buy|buying|purchase|order it|add(ed)? to (my )?cart|checkout|check out|take it|i'?ll take|want to order|how do i pay)\b/i;
const MEDIUM = /\b(price|prices|cost|how much|stock|available|availability|shipping|deliver|delivery|discount|sale|coupon|deal|cheaper|in stock)\b/i;

/** How strong a message's buying signal is: 'buy', cart and checkout are high; price, stock, shipping, discount medium. */
export function interestSignalOf(text: string, products: LeadProductOfInterest[]): LeadInterestLevel {
  if (HIGH.test(text)) return 'high';
  if (MEDIUM.test(text)) return 'medium';
  void products;
  return 'low';
}

const nameWords = (name: string) => (name.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= 3);

/** Whether a text names the product: its whole name, or every word of it (3 letters or more) in any order. */
function names(text: string, productName: string): boolean {
  const lower = text.toLowerCase();
  if (lower.includes(productName.toLowerCase())) return true;
  const words = new Set(lower.match(/[\p{L}\p{N}]+/gu) ?? []);
  const own = nameWords(productName);
  return own.length > 0 && own.every((w) => words.has(w));
}

/**
 * A lead's products of interest from one exchange: only the products the person named in their
 * message or the assistant named in its answer. A product a search or a model's tool call merely
 * touched (and the answer never showed) is not one.
 */
export function productsOfInterestIn(question: string, answer: string, candidates: LeadProductOfInterest[]): LeadProductOfInterest[] {
  return candidates.filter((p) => names(answer, p.name) || names(question, p.name));
}
