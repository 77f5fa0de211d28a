// The leads module's public face: what other modules (chat, cart) may call.
export {
  LEAD_ACTIVITY_JOB, cartLeadJobSql, enqueueLeadActivity, type Shopper,
} from './lead-jobs.ts';
export {
  recordLeadActivity, mergeProductsOfInterest, MAX_PRODUCTS_OF_INTEREST, type LeadActivity,
} from './record-lead-activity.ts';
export { markLeadWantsPerson, clearLeadWantsPerson } from './wants-person.ts';
