import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { newsletterSubscriptions } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { hashToken, newOpaqueToken } from '../../lib/tokens.ts';
import { subscribedMail } from './newsletter-mails.ts';

/**
 * Subscribes an address (lower-cased, unique) and mails a confirmation with an unsubscribe link.
 * An address that is already subscribed gets nothing new (no second mail); one that had
 * unsubscribed is subscribed again with a fresh link. Returns whether a mail was sent.
 */
export async function subscribeToNewsletter(deps: { db: Db; mailer: Mailer }, email: string, baseUrl: string): Promise<boolean> {
  const token = newOpaqueToken();
  const tokenHash = hashToken(token);
  const rows = await deps.db
    .insert(newsletterSubscriptions)
    .values({ id: newId(), email, unsubscribeTokenHash: tokenHash })
    .onConflictDoUpdate({
      target: newsletterSubscriptions.email,
      set: { unsubscribeTokenHash: tokenHash, unsubscribedAt: null, createdAt: sql`now()` },
      // Only a lapsed subscription is renewed; an active one keeps its link.
      setWhere: sql`${newsletterSubscriptions.unsubscribedAt} is not null`,
    })
    .returning({ id: newsletterSubscriptions.id });
  if (!rows.length) return false;
  const link = `${baseUrl}/newsletter/unsubscribe?token=${encodeURIComponent(token)}`;
  await deps.mailer.send(subscribedMail(email, link));
  return true;
}

/** Ends the subscription whose mail carried `token`; repeating it is harmless. False for an unknown token. */
export async function unsubscribeFromNewsletter(db: Db, token: string): Promise<boolean> {
  const rows = await db
    .update(newsletterSubscriptions)
    .set({ unsubscribedAt: sql`coalesce(${newsletterSubscriptions.unsubscribedAt}, now())` })
    .where(eq(newsletterSubscriptions.unsubscribeTokenHash, hashToken(token)))
    .returning({ id: newsletterSubscriptions.id });
  return rows.length > 0;
}
