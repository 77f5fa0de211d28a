import type { Lead } from '@shop/contracts';
import type { leads } from '../../db/schema.ts';

export type LeadRow = typeof leads.$inferSelect;

/** A lead as the API shows it; a user id containing 'guest' marks a guest (SPEC §3). */
export function presentLead(row: LeadRow): Lead {
  return {
    _id: row.id,
    userId: row.userId,
    isGuest: row.userId.includes('guest'),
    userName: row.userName,
    userEmail: row.userEmail,
    interestLevel: row.interestLevel,
    status: row.status,
    productsOfInterest: row.productsOfInterest.map((p) => ({ productId: p.productId, name: p.name })),
    lastInteraction: row.lastInteraction.toISOString(),
    notes: row.notes,
    followUpDate: row.followUpDate ? row.followUpDate.toISOString() : null,
    contactMethod: row.contactMethod,
    qualificationCriteria: row.qualificationCriteria,
    nextSteps: row.nextSteps,
    conversionDetails: row.conversionDetails,
    revenueAmount: row.revenueAmount === null ? null : Number(row.revenueAmount),
    lossReason: row.lossReason,
    lossDetails: row.lossDetails,
    createdAt: row.createdAt.toISOString(),
    wantsPersonAt: row.wantsPersonAt ? row.wantsPersonAt.toISOString() : null,
  };
}
