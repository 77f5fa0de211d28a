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
