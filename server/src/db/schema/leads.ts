import { index, jsonb, numeric, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAtColumn as createdAt, idColumn as id } from './users.ts';

export type LeadInterestLevel = 'high' | 'medium' | 'low';
export type LeadStatus = 'new' | 'contacted' | 'qualified' | 'converted' | 'lost';
export interface LeadProductOfInterest { productId: string; name: string }

/** A sales lead: one per customer or guest (user_id holds a user id or a guest id containing 'guest'). */
export const leads = pgTable(
  'leads',
  {
    id: id().primaryKey(),
    userId: text('user_id').notNull(),
    userName: text('user_name').notNull(),
    userEmail: text('user_email').notNull(),
    interestLevel: text('interest_level').$type<LeadInterestLevel>().notNull().default('low'),
    status: text('status').$type<LeadStatus>().notNull().default('new'),
    productsOfInterest: jsonb('products_of_interest').$type<LeadProductOfInterest[]>().notNull().default([]),
    lastInteraction: timestamp('last_interaction', { withTimezone: true }).notNull().defaultNow(),
    notes: text('notes').notNull().default(''),
    followUpDate: timestamp('follow_up_date', { withTimezone: true }),
    contactMethod: text('contact_method'),
    qualificationCriteria: text('qualification_criteria'),
    nextSteps: text('next_steps'),
    conversionDetails: text('conversion_details'),
    revenueAmount: numeric('revenue_amount', { precision: 12, scale: 2, mode: 'number' }),
    lossReason: text('loss_reason'),
    lossDetails: text('loss_details'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the person asked the assistant for a person, or was upset; cleared by a chat reply or a status change (migration 0090). */
    wantsPersonAt: timestamp('wants_person_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('leads_user_id_key').on(t.userId),
    index('leads_last_interaction_idx').on(t.lastInteraction.desc(), t.id.desc()),
    index('leads_status_idx').on(t.status, t.lastInteraction.desc()),
  ],
);
