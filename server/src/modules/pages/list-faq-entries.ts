import type { FaqEntryResponse } from '@shop/contracts';
import { asc } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { faqEntries } from '../../db/schema.ts';

/** The FAQ's questions in page order: shown on the FAQ page, answered from by the chat assistant. */
export async function listFaqEntries(db: Executor): Promise<FaqEntryResponse[]> {
  const rows = await db.select({ id: faqEntries.id, question: faqEntries.question, answer: faqEntries.answer, keywords: faqEntries.keywords })
    .from(faqEntries).orderBy(asc(faqEntries.position), asc(faqEntries.id));
  return rows;
}
