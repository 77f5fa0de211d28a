import { formatOrderNumber } from '@shop/contracts';
import { eq, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Executor } from '../../db/client.ts';
import { users, type StoredRefundLine } from '../../db/schema.ts';
import type { Mail, Mailer } from '../../lib/mailer.ts';
import { formatMoney } from '../../lib/money.ts';

/** The absolute address of an order's page for mails, on the shop's one origin (config.siteUrl). */
export function orderPageUrl(config: Pick<Config, 'siteUrl'>, orderId: string): string {
  return `${config.siteUrl}/order/${orderId}`;
}

/** When refunded money arrives (PayPal's own guidance: its balance at once, cards and banks within days). */
export const PAYPAL_REFUND_TIMING =
  'The money goes back to the PayPal account you paid with: to your PayPal balance within minutes, to a card or bank account usually within 3-5 business days, depending on your bank.';
export const DEMO_REFUND_NOTE = 'This order was paid with a demo payment: no money was taken, so none is sent back.';

interface MailOrder { id: string; number: number; provider: string | null }
type Customer = { name: string; email: string };

function lineTexts(lines: StoredRefundLine[], extraAmount: number): string[] {
  const out = lines.map((l) => `  ${l.quantity} x ${l.name}: ${formatMoney(l.amount)}`);
  if (extraAmount > 0) out.push(`  Other (shipping, goodwill): ${formatMoney(extraAmount)}`);
  // A discounted order: the lines' prices less the discount code's part, kept back (issue 34.1).
  if (extraAmount < 0) out.push(`  Less the order's discount: ${formatMoney(extraAmount)}`);
  return out;
}

/** The mail for one refund (not part of a cancellation: that one sends cancellationMail). */
export function refundMail(customer: Customer, order: MailOrder, refund: { amount: number; extraAmount: number; lines: StoredRefundLine[]; reason: string }, link: string): Mail {
  const name = formatOrderNumber(order.number);
  const demo = order.provider === 'demo';
  return {
    to: customer.email,
    subject: `Refund for your order ${name}`,
    text: [
      `Hello ${customer.name},`,
      '',
      `We have refunded ${formatMoney(refund.amount)} for your order ${name}.`,
      '',
      ...(refund.lines.length || refund.extraAmount !== 0 ? ['Refunded:', ...lineTexts(refund.lines, refund.extraAmount), ''] : []),
      `Reason: ${refund.reason}`,
      '',
      demo ? DEMO_REFUND_NOTE : PAYPAL_REFUND_TIMING,
      '',
      `View your order: ${link}`,
    ].join('\n'),
  };
}

/** The mail for a cancellation: nothing was charged (unpaid), or the full refund that came with it. */
export function cancellationMail(
  customer: Customer, order: MailOrder, c: { reason: string | null; refund: { amount: number; lines: StoredRefundLine[] } | null }, link: string,
): Mail {
  const name = formatOrderNumber(order.number);
  const money = c.refund
    ? [
      `We have refunded ${formatMoney(c.refund.amount)}, everything that was still paid for it.`,
      ...(c.refund.lines.length ? ['', 'Cancelled:', ...lineTexts(c.refund.lines, 0)] : []),
      '',
      order.provider === 'demo' ? DEMO_REFUND_NOTE : PAYPAL_REFUND_TIMING,
    ]
    : ['It was not paid, so nothing was charged.'];
  return {
    to: customer.email,
    subject: `Your order ${name} has been cancelled`,
    text: [
      `Hello ${customer.name},`,
      '',
      `Your order ${name} has been cancelled.`,
      ...(c.reason ? [`Reason: ${c.reason}`] : []),
      '',
      ...money,
      '',
      `View your order: ${link}`,
    ].join('\n'),
  };
}

/** The customer of an order (null when the account was deleted: nobody to tell). */
export async function customerOf(db: Executor, userId: string | null): Promise<Customer | null> {
  if (!userId) return null;
  const [u] = await db.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
  return u ?? null;
}

/**
 * Writes the mail in the caller's transaction when the mailer can (it exists exactly when the change
 * commits); returns what to call after the commit (start delivery, or send it then).
 */
export async function recordMailIn(tx: Executor, mailer: Mailer, mail: Mail): Promise<() => Promise<void>> {
  const recording = mailer.recordIn?.(mail, sql`true`);
  if (!recording) return () => mailer.send(mail);
  await tx.execute(sql`with ${recording.ctes} select 1`);
  return async () => recording.recorded();
}
