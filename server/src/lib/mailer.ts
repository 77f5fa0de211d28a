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

/**
 * Every message is recorded in the outbox table. With SMTP_URL it is also sent over SMTP, without
 * holding up the request (so, for instance, forgot-password takes as long whether or not the account
 * exists); `sent_at` records delivery. Without SMTP_URL the message is logged, so flows like password
 * reset work in the embedded default.
 */
export function createMailer(opts: { db: Db; smtpUrl?: string | undefined; from: string; log: FastifyBaseLogger }): Mailer {
  const transport = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : undefined;
  const pending = new Set<Promise<void>>();

  async function deliver(id: string, mail: Mail, smtp: nodemailer.Transporter) {
    try {
      await smtp.sendMail({ from: opts.from, ...mail });
      await opts.db.update(outbox).set({ sentAt: new Date() }).where(eq(outbox.id, id));
    } catch (err) {
      opts.log.error({ err, to: mail.to }, 'SMTP send failed; message kept in outbox');
    }
  }

  return {
    async send(mail) {
      const id = newId();
      await opts.db.insert(outbox).values({ id, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? null });
      if (!transport) {
        opts.log.info({ mail: { to: mail.to, subject: mail.subject, text: mail.text } }, 'mail written to outbox (no SMTP_URL)');
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
