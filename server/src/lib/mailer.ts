import { and, eq, isNotNull, isNull, like, lt, not, or, sql, type SQL } from 'drizzle-orm';
import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { jobs, outbox } from '../db/schema.ts';
import { newId } from './ids.ts';
import type { MailSealer } from './mail-seal.ts';
import { isSealed, SEALED_PREFIX } from './mail-seal.ts';
import { DEFAULT_MAX_ATTEMPTS, enqueueJob, PermanentJobError, RetryableJobError, type JobHandler, type JobRunner } from './jobs.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The mail carries a link (token) that stops working then: its body is erased at that time. */
  linkExpiresAt?: Date;
}

/** A message recorded by the caller's own statement (see Mailer.recordIn). */
export interface MailRecording {
  /** Common table expressions (no leading comma) that write the message when the condition holds. */
  ctes: SQL;
  /** Call after the caller's statement ran and the condition held (kicks SMTP delivery, logs). */
  recorded(): void;
}

export interface Mailer {
  /** Records the message; resolves once it is in the outbox (SMTP delivery is a background job). */
  send(mail: Mail): Promise<void>;
  /**
   * The same record written by another statement, only when `when` (an SQL condition) holds: the
   * message exists exactly when the caller's change does (e.g. an order confirmation and the
   * payment), in one round trip. Optional: without it, callers use send() afterwards.
   */
  recordIn?(mail: Mail, when: SQL): MailRecording;
  /** Resolves when background deliveries started so far have finished (tests, shutdown). */
  flush?(): Promise<void>;
}

export const DEV_MAIL_LOG_MESSAGE = 'DEVELOPMENT AID, not in production: mail not sent (no SMTP_URL), kept in the outbox';

/** The job that delivers one outbox message over SMTP (payload `{ outboxId }`, dedupe key = the id). */
export const MAIL_SEND_JOB = 'mail.send';

/**
 * Every message is recorded in the outbox table. With SMTP_URL, the same transaction enqueues a
 * `mail.send` job (lib/jobs.ts) and the instance is asked to run it at once: whichever instance of
 * a fleet claims the job sends the message, and a message claimed by an instance that died is sent
 * by another once the lease ends. `sent_at` records delivery. Without SMTP_URL the message stays
 * in the outbox only: its content (links, tokens) is never written to the log in production, and
 * outside production it is printed at debug level, clearly labelled, so that sign-up confirmation
 * and password reset can be tried locally (LOG_LEVEL=debug).
 */
export function createMailer(opts: {
  db: Db;
  smtpUrl?: string | undefined;
  from: string;
  log: FastifyBaseLogger;
  isProduction?: boolean;
  /** Seals the body at rest (lib/mail-seal.ts). */
  sealer: MailSealer;
  /** Called after a message was queued for SMTP (the app kicks its job runner). */
  onQueued?: () => void;
}): Mailer {
  return {
    async send(mail) {
      const id = newId();
      const row = { id, to: mail.to, subject: mail.subject, ...sealedBody(mail) };
      if (opts.smtpUrl) {
        await opts.db.transaction(async (tx) => {
          await tx.insert(outbox).values(row);
          await enqueueJob(tx, { kind: MAIL_SEND_JOB, dedupeKey: id, payload: { outboxId: id } });
        });
      } else {
        await opts.db.insert(outbox).values(row); // one statement: no transaction needed
      }
      if (opts.smtpUrl) {
        opts.onQueued?.();
        return;
      }
      logKept(id, mail);
    },
    recordIn(mail, when) {
      const id = newId();
      const body = sealedBody(mail);
      const outboxCte = sql`mail_outbox as (
        insert into ${outbox} (id, "to", subject, text, html, erase_after)
        select ${id}::char(24), ${mail.to}::text, ${mail.subject}::text, ${body.text}::text, ${body.html}::text, ${body.eraseAfter}::timestamptz where ${when}
      )`;
      // The mail.send job as enqueueJob writes it (same kind, dedupe key, payload and attempts).
      const ctes = opts.smtpUrl
        ? sql`${outboxCte}, mail_job as (
            insert into ${jobs} (id, kind, dedupe_key, payload, max_attempts)
            select ${newId()}::char(24), ${MAIL_SEND_JOB}::text, ${id}::text, ${JSON.stringify({ outboxId: id })}::jsonb, ${DEFAULT_MAX_ATTEMPTS}::int
            where ${when}
            on conflict (kind, dedupe_key) do nothing
          )`
        : outboxCte;
      return {
        ctes,
        recorded: () => {
          if (opts.smtpUrl) opts.onQueued?.();
          else logKept(id, mail);
        },
      };
    },
  };
  function sealedBody(mail: Mail) {
    return {
      text: opts.sealer.seal(mail.text),
      html: mail.html === undefined ? null : opts.sealer.seal(mail.html),
      eraseAfter: mail.linkExpiresAt ?? null,
    };
  }
  function logKept(id: string, mail: Mail) {
    opts.log.info({ outboxId: id }, 'mail kept in the outbox (no SMTP_URL)');
    if (opts.isProduction === false) opts.log.debug({ devMail: { to: mail.to, subject: mail.subject, text: mail.text } }, DEV_MAIL_LOG_MESSAGE);
  }
}

/** `<outbox id@domain of MAIL_FROM>`: the same for every attempt, so a receiver can drop a repeat. */
export function messageIdFor(outboxId: string, from: string): string {
  const domain = /@([^\s>]+)>?\s*$/.exec(from)?.[1] ?? 'shop.local';
  return `<${outboxId}@${domain}>`;
}

// How long one SMTP attempt waits (nodemailer's defaults are 2 minutes to connect, 30 s for the
// greeting and 10 minutes of silence): a server that accepts the connection and then says nothing
// fails the attempt within seconds, and the job is retried later with backoff.
/** To open the TCP (and TLS) connection. */
export const SMTP_CONNECTION_TIMEOUT_MS = 10_000;
/** For the server's "220" greeting once connected. */
export const SMTP_GREETING_TIMEOUT_MS = 10_000;
/** Of silence on an open connection (e.g. waiting for the answer to the message's end). */
export const SMTP_SOCKET_TIMEOUT_MS = 30_000;
/** To resolve the server's name. */
export const SMTP_DNS_TIMEOUT_MS = 10_000;

/** nodemailer's timeouts for a job lease: the constants above, each at most half the lease (and at least 1 s). */
export function smtpTimeouts(leaseMs: number) {
  const cap = Math.max(1_000, Math.floor(leaseMs / 2));
  return {
    connectionTimeout: Math.min(SMTP_CONNECTION_TIMEOUT_MS, cap),
    greetingTimeout: Math.min(SMTP_GREETING_TIMEOUT_MS, cap),
    socketTimeout: Math.min(SMTP_SOCKET_TIMEOUT_MS, cap),
    dnsTimeout: Math.min(SMTP_DNS_TIMEOUT_MS, cap),
  };
}

/**
 * The `mail.send` handler: sends one outbox message unless it was sent already, then sets
 * `sent_at`. SMTP waits are bounded (smtpTimeouts: seconds, and below half the job lease), so a
 * hung server fails the attempt fast and cannot make two instances send the same message at once;
 * the mail lane of the job runner is the only one it holds up. A 5xx answer fails the job at once
 * (retrying cannot help); anything else is retried with backoff. Delivery is at least once: an
 * instance that dies (or times out) between the server's "250" and the `sent_at` update leaves the
 * message to be sent again, with the same Message-ID, so the receiver can drop the repeat.
 */
export function mailSendHandler(opts: { db: Db; smtpUrl: string; from: string; leaseMs: number; sealer: MailSealer }): JobHandler {
  const timeouts = smtpTimeouts(opts.leaseMs);
  // nodemailer is loaded with the first message to send, not at start (an idle shop sends none).
  let transport: Promise<Transporter> | undefined;
  const getTransport = (): Promise<Transporter> => {
    // The SMTP transport built from the URL and the timeouts: createTransport(url, x) takes x as
    // message defaults, and createTransport({ url, ... }) drops everything but the URL.
    transport ??= Promise.all([import('nodemailer'), import('nodemailer/lib/smtp-transport/index.js')])
      .then(([{ default: nodemailer }, { default: SMTPTransport }]) =>
        nodemailer.createTransport(new SMTPTransport({ url: opts.smtpUrl, ...timeouts })))
      .catch((err: unknown) => {
        transport = undefined; // the next message tries again
        throw err;
      });
    return transport;
  };
  return async (payload) => {
    const outboxId = String(payload.outboxId ?? '');
    const [row] = await opts.db.select().from(outbox).where(eq(outbox.id, outboxId)).limit(1);
    if (!row) throw new PermanentJobError('The message is no longer in the outbox');
    if (row.sentAt) return { alreadySent: true };
    if (row.erasedAt) throw new PermanentJobError('The message was erased before it could be sent (its link had expired)');
    const text = opts.sealer.open(row.text);
    const html = row.html === null ? null : opts.sealer.open(row.html);
    const smtp = await getTransport();
    try {
      await smtp.sendMail({
        from: opts.from, to: row.to, subject: row.subject, text, ...(html ? { html } : {}),
        messageId: messageIdFor(row.id, opts.from),
      });
    } catch (err) {
      const { responseCode: code, code: errorCode } = err as { responseCode?: number; code?: string };
      if (code && code >= 500 && code < 600) throw new PermanentJobError(`The SMTP server refused the message (${code})`);
      if (code) throw new RetryableJobError(`The SMTP server answered ${code}`);
      throw new RetryableJobError(errorCode === 'ETIMEDOUT' ? 'The SMTP server did not answer in time' : 'The SMTP server could not be reached');
    }
    // Sent: the body is erased at once (the subject stays, for the record).
    await opts.db.update(outbox).set({ sentAt: new Date(), text: '', html: null, erasedAt: new Date() })
      .where(and(eq(outbox.id, row.id), isNull(outbox.sentAt)));
    return { sent: true };
  };
}

/** Registers mail delivery on the instance's job runner (only with SMTP_URL). */
export function registerMailJobs(
  jobs: JobRunner,
  opts: { db: Db; smtpUrl: string | undefined; from: string; sealer: MailSealer; eraseEveryMs: number },
): void {
  // Every instance: erase bodies that must not be kept, seal any older plain-text body.
  jobs.register(MAIL_ERASE_JOB, async () => ({
    ...(await eraseOutboxBodies(opts.db)),
    sealed: await sealPlainOutboxBodies(opts.db, opts.sealer),
  }));
  jobs.schedule(MAIL_ERASE_JOB, opts.eraseEveryMs);
  if (!opts.smtpUrl) return;
  jobs.register(MAIL_SEND_JOB, mailSendHandler({ db: opts.db, smtpUrl: opts.smtpUrl, from: opts.from, leaseMs: jobs.leaseMs, sealer: opts.sealer }));
}

/** The periodic job that erases sent bodies and bodies whose link expired. */
export const MAIL_ERASE_JOB = 'mail.erase';

/** Erases ('' / null) the bodies of sent messages and of messages whose link has expired. */
export async function eraseOutboxBodies(db: Db, now: Date = new Date()): Promise<{ erased: number }> {
  const rows = await db.update(outbox)
    .set({ text: '', html: null, erasedAt: now })
    .where(and(isNull(outbox.erasedAt), or(isNotNull(outbox.sentAt), lt(outbox.eraseAfter, now))))
    .returning({ id: outbox.id });
  return { erased: rows.length };
}

/** Seals bodies written in plain text before 0030 (the migration cannot: SQL does not know the key). */
export async function sealPlainOutboxBodies(db: Db, sealer: MailSealer): Promise<number> {
  const plain = await db.select({ id: outbox.id, text: outbox.text, html: outbox.html }).from(outbox)
    .where(and(isNull(outbox.erasedAt), not(like(outbox.text, `${SEALED_PREFIX}%`))));
  for (const row of plain) {
    await db.update(outbox)
      .set({ text: sealer.seal(row.text), html: row.html === null || isSealed(row.html) ? row.html : sealer.seal(row.html) })
      .where(and(eq(outbox.id, row.id), eq(outbox.text, row.text)));
  }
  return plain.length;
}

/** An outbox row with its body opened (the development mailbox, tests). */
export function openMail<T extends { text: string; html: string | null }>(row: T, sealer: MailSealer): T {
  return { ...row, text: sealer.open(row.text), html: row.html === null ? null : sealer.open(row.html) };
}
