import { sql, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { leads, type LeadInterestLevel, type LeadProductOfInterest } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { builtOnce } from '../../db/built-once.ts';

/** Products of interest kept per lead (SPEC §9: top products of interest 5). */
export const MAX_PRODUCTS_OF_INTEREST = 5;

const INTEREST_RANK: Record<LeadInterestLevel, number> = { low: 0, medium: 1, high: 2 };
/** The same order in SQL. */
const interestRankSql = (level: SQLWrapper) => sql`array_position(array['low', 'medium', 'high']::text[], ${level})`;
const EXCLUDED_INTEREST = sql.raw('excluded.interest_level');

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
 * The statement of each shape (with or without an interest signal), built once per database handle
 * with placeholders and prepared: it runs on every add-to-cart and chat message, and building this
 * upsert with Drizzle cost more JavaScript than running it.
 */
const upsertStatement = builtOnce<'signal' | 'no-signal', ReturnType<typeof buildUpsert>>();

function buildUpsert(db: Db, withSignal: boolean) {
  const at = sql.placeholder('at');
  return db.insert(leads).values({
    id: sql.placeholder('id'),
    userId: sql.placeholder('userId'),
    userName: sql.placeholder('userName'),
    userEmail: sql.placeholder('userEmail'),
    interestLevel: sql.placeholder('interestLevel'),
    productsOfInterest: sql.placeholder('productsOfInterest'),
    lastInteraction: at,
    updatedAt: sql.placeholder('now'),
  }).onConflictDoUpdate({
    target: leads.userId,
    set: {
      userName: sql`coalesce(nullif(excluded.user_name, ''), ${leads.userName})`,
      userEmail: sql`coalesce(nullif(excluded.user_email, ''), ${leads.userEmail})`,
      interestLevel: withSignal
        ? sql`case when ${interestRankSql(EXCLUDED_INTEREST)} > ${interestRankSql(leads.interestLevel)}
            then excluded.interest_level else ${leads.interestLevel} end`
        : sql`${leads.interestLevel}`,
      // Newer first, one entry per product (its first occurrence), at most MAX_PRODUCTS_OF_INTEREST.
      productsOfInterest: sql`(
        select coalesce(jsonb_agg(d.e order by d.n), '[]'::jsonb) from (
          select u.e, u.n from (
            select distinct on (x.e->>'productId') jsonb_build_object('productId', x.e->>'productId', 'name', x.e->>'name') as e, x.n
            from jsonb_array_elements(excluded.products_of_interest || ${leads.productsOfInterest}) with ordinality as x(e, n)
            order by x.e->>'productId', x.n
          ) u order by u.n limit ${sql.raw(String(MAX_PRODUCTS_OF_INTEREST))}
        ) d)`,
      lastInteraction: sql`greatest(${leads.lastInteraction}, excluded.last_interaction)`,
      updatedAt: sql`excluded.updated_at`,
    },
  }).prepare(withSignal ? 'lead_activity_signal' : 'lead_activity');
}

/**
 * Records an interaction (a chat message, a product asked about, an item carted) on the person's
 * lead, creating it on first contact. Automation only touches contact details, interest, products
 * and lastInteraction: a status, notes or follow-up an administrator set are never overwritten.
 */
export async function recordLeadActivity(db: Db, activity: LeadActivity): Promise<void> {
  const at = activity.at ?? new Date();
  // One statement, no transaction: the insert creates the lead on first contact; otherwise the
  // conflict update merges into the row's latest version under its row lock (concurrent
  // interactions of one person queue there), with the rules of mergeProductsOfInterest and
  // higherInterest written in SQL.
  const shape = activity.interestSignal ? 'signal' : 'no-signal';
  await upsertStatement(db, shape, () => buildUpsert(db, shape === 'signal')).execute({
    id: newId(),
    userId: activity.userId,
    userName: activity.userName,
    userEmail: activity.userEmail,
    interestLevel: activity.interestSignal ?? 'low',
    productsOfInterest: mergeProductsOfInterest(activity.productsOfInterest ?? [], []),
    at,
    now: new Date(),
  });
}
