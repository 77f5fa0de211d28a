import type { CreateRefundBody, Order, OrderItem } from '@shop/contracts';
import { ORDER_MESSAGES } from '@shop/contracts/constants';
import { parseMoney, parseWholeNumber } from '@shop/contracts/numbers';

/** What the refund dialog holds: per order line the units to refund (as typed) and the restock choice. */
export interface RefundForm {
  quantities: Record<string, string>;
  restock: Record<string, boolean>;
  /** Given back beyond the lines (shipping, goodwill), as typed. */
  amount: string;
  reason: string;
}

const toCents = (value: number) => Math.round(value * 100);

/** Units of a line not refunded yet. */
export const refundableQuantity = (item: OrderItem) => Math.max(0, item.quantity - (item.refundedQuantity ?? 0));

/** What is left to refund on the order, in cents: paid minus refunded (0 for an unpaid order). */
export const remainingCents = (order: Order) => (order.isPaid ? Math.max(0, toCents(order.totalPrice) - toCents(order.refundedAmount)) : 0);

/** The form as it opens: nothing chosen; restock on for the lines not shipped (as the server's default). */
export function initialRefundForm(order: Order): RefundForm {
  return {
    quantities: Object.fromEntries(order.orderItems.map((i) => [i._id, '0'])),
    restock: Object.fromEntries(order.orderItems.map((i) => [i._id, !i.shipped])),
    amount: '',
    reason: '',
  };
}

/** Everything left: every line's refundable units, and the rest (shipping, earlier extra amounts) as the amount. */
export function fullRefundForm(order: Order, form: RefundForm): RefundForm {
  const quantities = Object.fromEntries(order.orderItems.map((i) => [i._id, String(refundableQuantity(i))]));
  const linesCents = order.orderItems.reduce((n, i) => n + toCents(i.price) * refundableQuantity(i), 0);
  const extra = Math.max(0, remainingCents(order) - linesCents);
  return { ...form, quantities, amount: extra ? (extra / 100).toFixed(2) : '' };
}

export interface RefundPlan {
  /** The request to send, when the form is valid. */
  body: CreateRefundBody | null;
  /** What the refund gives back, in cents (lines that parse, plus the amount). */
  totalCents: number;
  /** Field errors by field: `quantity:<orderItemId>`, `amount`, `reason`, and `total`. */
  errors: Record<string, string>;
}

/**
 * Reads the form the way the server will: whole units between 0 and what is left of each line, an
 * amount of at most 2 decimals, a reason, something to refund, never more than paid minus refunded.
 * The server decides in the end (two administrators at once); this only says early what it would.
 */
export function planRefund(order: Order, form: RefundForm): RefundPlan {
  const errors: Record<string, string> = {};
  const lines: CreateRefundBody['lines'] = [];
  let totalCents = 0;
  for (const item of order.orderItems) {
    const left = refundableQuantity(item);
    const parsed = parseWholeNumber(form.quantities[item._id] ?? '0');
    if (!parsed.ok || parsed.value < 0 || parsed.value > left) {
      errors[`quantity:${item._id}`] = left ? `Quantity must be a whole number from 0 to ${left}` : `'${item.name}' has been refunded in full`;
      continue;
    }
    if (parsed.value === 0) continue;
    lines.push({ orderItemId: item._id, quantity: parsed.value, restock: form.restock[item._id] ?? !item.shipped });
    totalCents += toCents(item.price) * parsed.value;
  }
  let amount: number | undefined;
  if (form.amount.trim() !== '') {
    const parsed = parseMoney(form.amount);
    if (!parsed.ok) errors.amount = parsed.problem === 'decimals' ? 'Amount must have at most 2 decimal places' : 'Amount must be a number written like 4.99';
    else if (parsed.value < 0) errors.amount = 'Amount must be 0 or more';
    else if (parsed.value > 0) {
      amount = parsed.value;
      totalCents += toCents(parsed.value);
    }
  }
  const reason = form.reason.trim();
  if (!reason) errors.reason = 'A reason is required';
  const left = remainingCents(order);
  if (totalCents <= 0) errors.total = ORDER_MESSAGES.refundEmpty;
  else if (totalCents > left) errors.total = `${ORDER_MESSAGES.refundTooLarge}: ${(left / 100).toFixed(2)} USD left`;
  const isValid = Object.keys(errors).length === 0;
  return { body: isValid ? { lines, ...(amount === undefined ? {} : { amount }), reason } : null, totalCents, errors };
}
