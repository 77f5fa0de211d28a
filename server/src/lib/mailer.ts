import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { outbox } from '../db/schema.ts';
import { newId } from './ids.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** Records the message; resolves once it is in the outbox (SMTP delivery continues in the background). */
  send(mail: Mail): Promise<void>;
  /** Resolves when background deliveries started so far have finished (tests, shutdown). */
  flush?(): Promise<void>;
}

export const DEV_MAIL_LOG_MESSAGE = 'DEVELOPMENT AID, not in production: mail not sent (no SMTP_URL), kept in the outbox';

/**
 * Every message is recorded in the outbox table. With SMTP_URL it is also sent over SMTP, without
 * holding up the request; `sent_at` records delivery. Without SMTP_URL the message stays in the
 * outbox only: its content (links, tokens) is never written to the log in production, and outside
 * production it is printed at debug level, clearly labelled, so that sign-up confirmation and
 * password reset can be tried locally (LOG_LEVEL=debug).
 */
export function createMailer(opts: {
  db: Db;
  smtpUrl?: string | undefined;
  from: string;
  log: FastifyBaseLogger;
  isProduction?: boolean;
}): Mailer {
  const transport = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : undefined;
  const pending = new Set<Promise<void>>();

  async function deliver(id: string, mail: Mail, smtp: nodemailer.Transporter) {
    try {
      await smtp.sendMail({ from: opts.from, ...mail });
      await opts.db.update(outbox).set({ sentAt: new Date() }).where(eq(outbox.id, id));
    } catch (err) {
      opts.log.error({ err, outboxId: id }, 'SMTP send failed; message kept in outbox');
    }
  }

  return {
    async send(mail) {
      const id = newId();
      await opts.db.insert(outbox).values({ id, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? null });
      if (!transport) {
        opts.log.info({ outboxId: id }, 'mail kept in the outbox (no SMTP_URL)');
        if (opts.isProduction === false) opts.log.debug({ devMail: { to: mail.to, subject: mail.subject, text: mail.text } }, DEV_MAIL_LOG_MESSAGE);
        return;
      }
      const delivery = deliver(id, mail, transport).finally(() => pending.delete(delivery));
      pending.add(delivery);
    },
    async flush() {
      await Promise.all([...pending]);
    },
  };
}
