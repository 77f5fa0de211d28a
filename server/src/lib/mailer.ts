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
  send(mail: Mail): Promise<void>;
}

/**
 * Every message is recorded in the outbox table. With SMTP_URL it is also sent over SMTP;
 * without it the message is logged, so flows like password reset work in the embedded default.
 */
export function createMailer(opts: { db: Db; smtpUrl?: string | undefined; from: string; log: FastifyBaseLogger }): Mailer {
  const transport = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : undefined;
  return {
    async send(mail) {
      const id = newId();
      await opts.db.insert(outbox).values({ id, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? null });
      if (!transport) {
        opts.log.info({ mail: { to: mail.to, subject: mail.subject, text: mail.text } }, 'mail written to outbox (no SMTP_URL)');
        return;
      }
      try {
        await transport.sendMail({ from: opts.from, ...mail });
        await opts.db.update(outbox).set({ sentAt: new Date() }).where(eq(outbox.id, id));
      } catch (err) {
        opts.log.error({ err, to: mail.to }, 'SMTP send failed; message kept in outbox');
      }
    },
  };
}
