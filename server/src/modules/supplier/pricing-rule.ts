import { DEFAULT_MARKUP_PERCENT, type PricingRule } from '@shop/contracts';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { supplierPricing } from '../../db/schema.ts';

export const DEFAULT_PRICING_RULE: PricingRule = { markupPercent: DEFAULT_MARKUP_PERCENT, fixedAmount: 0, rounding: '.99' };

/** The shop's pricing rule (GET cj/pricing); the default (50 %, no fixed amount, .99) until one is saved. */
export async function getPricingRule(db: Executor): Promise<PricingRule> {
  const [row] = await db.select().from(supplierPricing).limit(1);
  if (!row) return { ...DEFAULT_PRICING_RULE };
  return { markupPercent: row.markupPercent, fixedAmount: row.fixedAmount, rounding: row.rounding === '.00' ? '.00' : '.99' };
}

/** Saves the pricing rule (PUT cj/pricing); it applies to products and variants imported from now on. */
export async function savePricingRule(db: Executor, rule: PricingRule): Promise<PricingRule> {
  await db.insert(supplierPricing).values({ id: 'default', ...rule, updatedAt: new Date() })
    .onConflictDoUpdate({
      target: supplierPricing.id,
      set: { markupPercent: sql`excluded.markup_percent`, fixedAmount: sql`excluded.fixed_amount`, rounding: sql`excluded.rounding`, updatedAt: sql`excluded.updated_at` },
    });
  return getPricingRule(db);
}
