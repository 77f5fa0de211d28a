import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Executor } from '../../db/client.ts';
import { enqueueJob, jobInsertSql, PermanentJobError, type JobPayload, type JobRunner } from '../../lib/jobs.ts';
import { recordLeadActivity, type LeadActivity } from './record-lead-activity.ts';
import { markLeadWantsPerson } from './wants-person.ts';

/**
 * A lead interaction to record (a chat message, an item carted): a durable job, written with the
 * change that causes it, run by any instance, retried while the database refuses it (issue 32: an
 * add-to-cart during an outage used to lose its lead update as a failed background task).
 */
export const LEAD_ACTIVITY_JOB = 'leads.activity';

const payloadSchema = z.object({
  userId: z.string().min(1),
  userName: z.string(),
  userEmail: z.string(),
  productsOfInterest: z.array(z.object({ productId: z.string().min(1), name: z.string() })).optional(),
  interestSignal: z.enum(['low', 'medium', 'high']).optional(),
  /** They asked for a person (or were upset): the lead is marked "Wants a person" (wants-person.ts). */
  wantsPerson: z.boolean().optional(),
  at: z.string().datetime({ offset: true }),
});

/** The job's payload: the activity, its time as ISO text. */
function payloadOf(activity: LeadActivity, wantsPerson: boolean): JobPayload {
  return {
    ...(wantsPerson ? { wantsPerson: true } : {}),
    userId: activity.userId,
    userName: activity.userName,
    userEmail: activity.userEmail,
    ...(activity.productsOfInterest?.length ? { productsOfInterest: activity.productsOfInterest.map((p) => ({ productId: p.productId, name: p.name })) } : {}),
    ...(activity.interestSignal ? { interestSignal: activity.interestSignal } : {}),
    at: (activity.at ?? new Date()).toISOString(),
  };
}

/**
 * Queues an interaction for the person's lead, in the caller's transaction when it has one.
 * `dedupeKey` names the event that caused it (a message id...): the same event queues one job.
 */
export async function enqueueLeadActivity(db: Executor, activity: LeadActivity, dedupeKey: string, opts: { wantsPerson?: boolean } = {}): Promise<void> {
  await enqueueJob(db, { kind: LEAD_ACTIVITY_JOB, dedupeKey, payload: payloadOf(activity, opts.wantsPerson ?? false) });
}

/** Who carted: their lead gets the product in front of its products of interest and a high interest level. */
export interface Shopper { id: string; name: string; email: string }

/**
 * The job of an add-to-cart, written by the cart's own statement (a CTE beside its line write, see
 * jobInsertSql): `line` names the written line's product id and name over `line.from`. One job per
 * cart change: the key is the shopper, the product and the time written on the line.
 */
export function cartLeadJobSql(shopper: Shopper, at: Date, line: { productId: SQL; name: SQL; from: SQL }): SQL {
  const iso = at.toISOString();
  return jobInsertSql({
    kind: LEAD_ACTIVITY_JOB,
    dedupeKey: sql`${`cart:${shopper.id}:`}::text || ${line.productId} || ${`:${iso}`}::text`,
    payload: sql`jsonb_build_object(
      'userId', ${shopper.id}::text, 'userName', ${shopper.name}::text, 'userEmail', ${shopper.email}::text,
      'productsOfInterest', jsonb_build_array(jsonb_build_object('productId', ${line.productId}::text, 'name', ${line.name}::text)),
      'interestSignal', 'high', 'at', ${iso}::text)`,
  }, line.from);
}

/** Registers the job's handler on the runner: records the interaction (the lead upsert). */
export function registerLeadJobs(jobs: JobRunner, db: Db): void {
  jobs.register(LEAD_ACTIVITY_JOB, async (payload) => {
    const parsed = payloadSchema.safeParse(payload);
    if (!parsed.success) throw new PermanentJobError('Not a lead activity');
    const { at, wantsPerson, ...activity } = parsed.data;
    await recordLeadActivity(db, { ...activity, at: new Date(at) });
    if (wantsPerson) await markLeadWantsPerson(db, activity.userId, new Date(at));
  });
}
