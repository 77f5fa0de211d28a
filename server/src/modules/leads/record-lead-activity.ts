import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { leads, type LeadInterestLevel, type LeadProductOfInterest } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';

/** Products of interest kept per lead (SPEC §9: top products of interest 5). */
export const MAX_PRODUCTS_OF_INTEREST = 5;

const INTEREST_RANK: Record<LeadInterestLevel, number> = { low: 0, medium: 1, high: 2 };

export interface LeadActivity {
  /** A user id, or a guest id (contains 'guest'). */
  userId: string;
  userName: string;
  userEmail: string;
  /** Products the person asked about or added to the cart, most recent first. */
  productsOfInterest?: LeadProductOfInterest[];
  /** How strong this interaction's buying signal was; the lead's level only ever rises. */
  interestSignal?: LeadInterestLevel;
  at?: Date;
}

/** Merges newer products in front of older ones, one entry per product, at most five. */
export function mergeProductsOfInterest(newer: LeadProductOfInterest[], older: LeadProductOfInterest[]): LeadProductOfInterest[] {
  const seen = new Set<string>();
  const merged: LeadProductOfInterest[] = [];
  for (const p of [...newer, ...older]) {
    if (seen.has(p.productId)) continue;
    seen.add(p.productId);
    merged.push({ productId: p.productId, name: p.name });
    if (merged.length === MAX_PRODUCTS_OF_INTEREST) break;
  }
  return merged;
}

export function higherInterest(a: LeadInterestLevel, b: LeadInterestLevel | undefined): LeadInterestLevel {
  return b && INTEREST_RANK[b] > INTEREST_RANK[a] ? b : a;
}

/**
 * Records an interaction (a chat message, a product asked about, an item carted) on the person's
 * lead, creating it on first contact. Automation only touches contact details, interest, products
 * and lastInteraction: a status, notes or follow-up an administrator set are never overwritten.
 */
export async function recordLeadActivity(db: Db, activity: LeadActivity): Promise<void> {
  const at = activity.at ?? new Date();
  await db.transaction(async (tx) => {
    // Serialise concurrent interactions of one person on the row lock, then merge. The lead is
    // created on first contact only (most interactions find it: no insert attempt then).
    const lockLead = () => tx.select().from(leads).where(eq(leads.userId, activity.userId)).for('update').limit(1);
    let [row] = await lockLead();
    if (!row) {
      await tx.insert(leads).values({
        id: newId(),
        userId: activity.userId,
        userName: activity.userName,
        userEmail: activity.userEmail,
        interestLevel: activity.interestSignal ?? 'low',
        productsOfInterest: mergeProductsOfInterest(activity.productsOfInterest ?? [], []),
        lastInteraction: at,
      }).onConflictDoNothing({ target: leads.userId });
      [row] = await lockLead();
    }
    if (!row) return;
    await tx.update(leads).set({
      userName: activity.userName || row.userName,
      userEmail: activity.userEmail || row.userEmail,
      interestLevel: higherInterest(row.interestLevel, activity.interestSignal),
      productsOfInterest: mergeProductsOfInterest(activity.productsOfInterest ?? [], row.productsOfInterest),
      lastInteraction: sql`greatest(${leads.lastInteraction}, ${at.toISOString()}::timestamptz)`,
      updatedAt: new Date(),
    }).where(eq(leads.id, row.id));
  });
}
