import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { jobs as jobsTable, outbox } from '../db/schema.ts';
import { startSmtpServer } from '../test/smtp-mock.ts';
import { openTestDatabase } from '../test/test-app.ts';
import { createJobRunner, findJob } from './jobs.ts';
import { createMailer, MAIL_SEND_JOB, messageIdFor, registerMailJobs } from './mailer.ts';

/** The test SMTP server, recording the text of every message it receives. */
async function recordingSmtpServer(opts: { rejectData?: boolean } = {}) {
  const received: string[] = [];
  const smtp = await startSmtpServer(({ data }) => {
    received.push(data);
    return opts.rejectData ? '554 rejected' : '250 queued';
  });
  return { ...smtp, received };
}

describe('mailer', () => {
  let database: Database;
  let cleanup: () => Promise<void>;
  const log = pino({ level: 'silent' });
  beforeAll(async () => { ({ database, cleanup } = await openTestDatabase()); });
  afterAll(async () => { await cleanup(); });

  const rowFor = async (to: string) => (await database.db.select().from(outbox).where(eq(outbox.to, to)))[0];

  it('without SMTP_URL: records the message in the outbox, unsent', async () => {
    const mailer = createMailer({ db: database.db, from: 'Shop <no-reply@shop.test>', log });
    await mailer.send({ to: 'outbox@example.com', subject: 'Hello', text: 'Plain body' });
    expect(await rowFor('outbox@example.com')).toMatchObject({ subject: 'Hello', text: 'Plain body', html: null, sentAt: null });
  });

  const runnerFor = (smtpUrl: string) => {
    const jobs = createJobRunner({ db: database.db, log, pollMs: 0, leaseMs: 10_000, backoff: () => 0 });
    registerMailJobs(jobs, { db: database.db, smtpUrl, from: 'Shop <no-reply@shop.test>' });
    return jobs;
  };

  it("recordIn: another statement writes the message (and with SMTP_URL its mail.send job) only when its condition holds", async () => {
    const smtp = await recordingSmtpServer();
    try {
      let kicks = 0;
      const mailer = createMailer({ db: database.db, smtpUrl: smtp.url, from: 'Shop <no-reply@shop.test>', log, onQueued: () => { kicks += 1; } });
      const run = async (to: string, holds: boolean) => {
        const recording = mailer.recordIn!({ to, subject: 'Paid', text: 'Thanks' }, holds ? sql`true` : sql`false`);
        await database.db.execute(sql`with ${recording.ctes} select 1`);
        if (holds) recording.recorded();
      };
      await run('record-no@example.com', false);
      expect(await rowFor('record-no@example.com')).toBeUndefined();
      await run('record-yes@example.com', true);
      const row = await rowFor('record-yes@example.com');
      expect(row).toMatchObject({ subject: 'Paid', text: 'Thanks', html: null, sentAt: null });
      expect(kicks).toBe(1);
      expect(await findJob(database.db, MAIL_SEND_JOB, row!.id)).toMatchObject({ status: 'pending', payload: { outboxId: row!.id }, maxAttempts: 10 });
      expect(await runnerFor(smtp.url).runDue()).toBe(1);
      expect(smtp.received).toHaveLength(1);
      expect((await rowFor('record-yes@example.com'))?.sentAt).toBeInstanceOf(Date);
    } finally {
      await smtp.close();
    }
  });

  it('with SMTP_URL: records the message and a mail.send job in one go; the job delivers it once and marks it sent', async () => {
    const smtp = await recordingSmtpServer();
    try {
      let kicks = 0;
      const mailer = createMailer({ db: database.db, smtpUrl: smtp.url, from: 'Shop <no-reply@shop.test>', log, onQueued: () => { kicks += 1; } });
      await mailer.send({ to: 'smtp@example.com', subject: 'Reset', text: 'Link inside', html: '<p>Link inside</p>' });
      const row = await rowFor('smtp@example.com');
      expect(row?.sentAt).toBeNull();
      expect(kicks).toBe(1);
      const job = await findJob(database.db, MAIL_SEND_JOB, row!.id);
      expect(job).toMatchObject({ status: 'pending', payload: { outboxId: row!.id } });

      const jobs = runnerFor(smtp.url);
      expect(await jobs.runDue()).toBe(1);
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]).toContain('Subject: Reset');
      expect(smtp.received[0]).toContain('To: smtp@example.com');
      expect(smtp.received[0]).toContain(`Message-ID: <${row!.id}@shop.test>`);
      expect((await rowFor('smtp@example.com'))?.sentAt).toBeInstanceOf(Date);
      expect(await findJob(database.db, MAIL_SEND_JOB, row!.id)).toMatchObject({ status: 'done', result: { sent: true } });
      expect(await jobs.runDue()).toBe(0);
      expect(smtp.received).toHaveLength(1);

      // A job run again for a message already sent (a crash after the update) sends nothing.
      await database.db.update(jobsTable).set({ status: 'pending' }).where(eq(jobsTable.dedupeKey, row!.id));
      expect(await jobs.runDue()).toBe(1);
      expect(smtp.received).toHaveLength(1);
      expect(await findJob(database.db, MAIL_SEND_JOB, row!.id)).toMatchObject({ status: 'done', result: { alreadySent: true } });
    } finally {
      await smtp.close();
    }
  });

  it('keeps the message in the outbox, unsent, when SMTP refuses it (5xx: the job fails with the code)', async () => {
    const smtp = await recordingSmtpServer({ rejectData: true });
    try {
      const mailer = createMailer({ db: database.db, smtpUrl: smtp.url, from: 'Shop <no-reply@shop.test>', log });
      await mailer.send({ to: 'refused@example.com', subject: 'Nope', text: 'x' });
      await runnerFor(smtp.url).runDue();
      const row = await rowFor('refused@example.com');
      expect(row).toMatchObject({ subject: 'Nope', sentAt: null });
      expect(await findJob(database.db, MAIL_SEND_JOB, row!.id)).toMatchObject({ status: 'failed', lastError: 'The SMTP server refused the message (554)' });
    } finally {
      await smtp.close();
    }
  });

  it('retries later when the SMTP server cannot be reached', async () => {
    const smtp = await recordingSmtpServer();
    await smtp.close();
    const mailer = createMailer({ db: database.db, smtpUrl: smtp.url, from: 'Shop <no-reply@shop.test>', log });
    await mailer.send({ to: 'down@example.com', subject: 'Later', text: 'x' });
    const jobs = createJobRunner({ db: database.db, log, pollMs: 0, leaseMs: 10_000, backoff: () => 60_000 });
    registerMailJobs(jobs, { db: database.db, smtpUrl: smtp.url, from: 'Shop <no-reply@shop.test>' });
    await jobs.runDue();
    const row = await rowFor('down@example.com');
    expect(row?.sentAt).toBeNull();
    expect(await findJob(database.db, MAIL_SEND_JOB, row!.id)).toMatchObject({ status: 'pending', attempts: 1, lastError: 'The SMTP server could not be reached' });
  });

  it('Message-ID: the outbox id at the domain of MAIL_FROM', () => {
    expect(messageIdFor('abc', 'Shop <no-reply@shop.example>')).toBe('<abc@shop.example>');
    expect(messageIdFor('abc', 'orders@example.org')).toBe('<abc@example.org>');
    expect(messageIdFor('abc', 'Shop')).toBe('<abc@shop.local>');
  });
});
