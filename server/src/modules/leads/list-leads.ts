import {
  LEAD_INTEREST_LEVELS, LEAD_STATUSES, TOP_PRODUCTS_OF_INTEREST, type LeadListResponse, type LeadStats, type ListLeadsQuery,
} from '@shop/contracts';
import { and, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { leads } from '../../db/schema.ts';
import { presentLead } from './leads.presenter.ts';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Lead statistics over every lead: totals by status and interest, the five most wanted products. */
export async function getLeadStats(db: Executor): Promise<LeadStats> {
  const [groups, top] = await Promise.all([
    db.select({ status: leads.status, interest: leads.interestLevel, n: sql<number>`count(*)::int` })
      .from(leads).groupBy(leads.status, leads.interestLevel),
    db.execute<{ product_id: string; name: string; n: number }>(sql`
      select p->>'productId' as product_id, max(p->>'name') as name, count(*)::int as n
      from ${leads}, jsonb_array_elements(${leads.productsOfInterest}) as p
      group by 1 order by n desc, name asc limit ${TOP_PRODUCTS_OF_INTEREST}`),
  ]);
  const byStatus = Object.fromEntries(LEAD_STATUSES.map((s) => [s, 0])) as LeadStats['byStatus'];
  const byInterest = Object.fromEntries(LEAD_INTEREST_LEVELS.map((s) => [s, 0])) as LeadStats['byInterest'];
  let total = 0;
  for (const g of groups) {
    byStatus[g.status] += g.n;
    byInterest[g.interest] += g.n;
    total += g.n;
  }
  const rows = (Array.isArray(top) ? top : (top as { rows: Array<{ product_id: string; name: string; n: number }> }).rows);
  return { total, byStatus, byInterest, topProducts: rows.map((r) => ({ productId: r.product_id, name: r.name, count: Number(r.n) })) };
}

/** Leads for the back office: filtered by status and interest, searched, newest interaction first. */
export async function listLeads(db: Executor, query: ListLeadsQuery): Promise<LeadListResponse> {
  const conditions: SQL[] = [];
  if (query.status !== 'all') conditions.push(eq(leads.status, query.status));
  if (query.interest !== 'all') conditions.push(eq(leads.interestLevel, query.interest));
  const term = query.search?.trim();
  if (term) {
    const pattern = `%${escapeLike(term)}%`;
    conditions.push(or(ilike(leads.userName, pattern), ilike(leads.userEmail, pattern), ilike(leads.notes, pattern))!);
  }
  const where = conditions.length ? and(...conditions) : undefined;
  const [[{ n } = { n: 0 }], rows, stats] = await Promise.all([
    db.select({ n: sql<number>`count(*)::int` }).from(leads).where(where),
    db.select().from(leads).where(where).orderBy(desc(leads.lastInteraction), desc(leads.id))
      .limit(query.pageSize).offset((query.page - 1) * query.pageSize),
    getLeadStats(db),
  ]);
  return { leads: rows.map(presentLead), page: query.page, pages: Math.max(1, Math.ceil(n / query.pageSize)), countLeads: n, stats };
}
