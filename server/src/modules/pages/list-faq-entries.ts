import type { FaqEntryResponse } from '@shop/contracts';
import { asc } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { faqEntries } from '../../db/schema.ts';
import { fillShippingPlaceholders, getShippingSettings } from '../shipping/index.ts';

/**
 * The FAQ's questions in page order: shown on the FAQ page, answered from by the chat assistant. The
 * answers' shipping placeholders are filled from the shipping settings unless `source` (the editor).
 */
export async function listFaqEntries(db: Executor, opts: { source?: boolean } = {}): Promise<FaqEntryResponse[]> {
  const rows = await db.select({ id: faqEntries.id, question: faqEntries.question, answer: faqEntries.answer, keywords: faqEntries.keywords })
    .from(faqEntries).orderBy(asc(faqEntries.position), asc(faqEntries.id));
  if (opts.source || !rows.some((r) => r.answer.includes('{{'))) return rows;
  const settings = await getShippingSettings(db);
  return rows.map((r) => ({ ...r, answer: fillShippingPlaceholders(r.answer, settings) }));
}
