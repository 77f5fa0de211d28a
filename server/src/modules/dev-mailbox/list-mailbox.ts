import type { DevMailboxMessage } from '@shop/contracts';
import { desc } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { outbox } from '../../db/schema.ts';
import { SealError, type MailSealer } from '../../lib/mail-seal.ts';

/** The newest `limit` messages of the outbox, newest first, with their bodies opened. */
export async function listDevMailbox(deps: { db: Db; sealer: MailSealer }, limit: number): Promise<DevMailboxMessage[]> {
  const rows = await deps.db.select().from(outbox).orderBy(desc(outbox.createdAt), desc(outbox.id)).limit(limit);
  return rows.map((row) => {
    let text: string;
    try {
      text = deps.sealer.open(row.text);
    } catch (err) {
      if (!(err instanceof SealError)) throw err;
      text = '(This message was sealed with another key: DATA_ENCRYPTION_KEY or JWT_SECRET changed since.)';
    }
    return {
      id: row.id,
      to: row.to,
      subject: row.subject,
      text,
      createdAt: row.createdAt.toISOString(),
      sentAt: row.sentAt?.toISOString() ?? null,
      erased: row.erasedAt !== null,
    };
  });
}
