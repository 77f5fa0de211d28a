import { LEAD_MESSAGES, type Lead, type UpdateLeadBody } from '@shop/contracts';
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { leads } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import { presentLead } from './leads.presenter.ts';

const textOrNull = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim());

/**
 * An administrator's update of a lead (any status to any status, SPEC §4). Fields left out keep
 * their value; an empty follow-up date or detail clears it. The dialog's extra fields are stored.
 */
export async function updateLead(db: Executor, id: string, body: UpdateLeadBody): Promise<Lead> {
  if (!isId(id)) throw notFound(LEAD_MESSAGES.notFound);
  const changes: Partial<typeof leads.$inferInsert> = { status: body.status, updatedAt: new Date() };
  if (body.notes !== undefined) changes.notes = body.notes;
  if (body.followUpDate !== undefined) changes.followUpDate = body.followUpDate ? new Date(body.followUpDate) : null;
  const texts = ['contactMethod', 'qualificationCriteria', 'nextSteps', 'conversionDetails', 'lossReason', 'lossDetails'] as const;
  for (const key of texts) {
    const value = textOrNull(body[key]);
    if (value !== undefined) changes[key] = value;
  }
  if (body.revenueAmount !== undefined) changes.revenueAmount = body.revenueAmount === '' || body.revenueAmount === null ? null : Math.round(body.revenueAmount * 100) / 100;
  // A status change means an administrator took the lead in hand: its "Wants a person" is answered.
  const wantsPersonAt = sql`case when ${leads.status} = ${body.status} then ${leads.wantsPersonAt} end`;
  const [row] = await db.update(leads).set({ ...changes, wantsPersonAt }).where(eq(leads.id, id)).returning();
  if (!row) throw notFound(LEAD_MESSAGES.notFound);
  return presentLead(row);
}
