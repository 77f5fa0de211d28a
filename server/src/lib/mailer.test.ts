import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { jobs as jobsTable, outbox } from '../db/schema.ts';
import { startSmtpServer } from '../test/smtp-mock.ts';
import { openTestDatabase } from '../test/test-app.ts';
import { createJobRunner, findJob } from './jobs.ts';
import { createMailSealer, isSealed } from './mail-seal.ts';
import { createMailer, eraseOutboxBodies, MAIL_SEND_JOB, messageIdFor, openMail, registerMailJobs, sealPlainOutboxBodies } from './mailer.ts';

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

  const sealer = createMailSealer('mailer-test-key-mailer-test-key-0123456789');
  const storedRow = async (to: string) => (await database.db.select().from(outbox).where(eq(outbox.to, to)))[0];
  /** The row with its body opened. */
  const rowFor = async (to: string) => {
    const row = await storedRow(to);
    return row && openMail(row, sealer);
  };

  it('without SMTP_URL: records the message in the outbox, unsent', async () => {
    const mailer = createMailer({ db: database.db, from: 'Shop <no-reply@shop.test>', log, sealer });
    await mailer.send({ to: 'outbox@example.com', subject: 'Hello', text: 'Plain body' });
    expect(await rowFor('outbox@example.com')).toMatchObject({ subject: 'Hello', text: 'Plain body', html: null, sentAt: null });
  });

  const runnerFor = (smtpUrl: string) => {
    const jobs = createJobRunner({ db: database.db, log, pollMs: 0, leaseMs: 10_000, backoff: () => 0 });
    registerMailJobs(jobs, { db: database.db, smtpUrl, from: 'Shop <no-reply@shop.test>', sealer, eraseEveryMs: 3_600_000 });
    return jobs;
  };

  it("recordIn: another statement writes the message (and with SMTP_URL its mail.send job) only when its condition holds", async () => {
    const smtp = await recordingSmtpServer();
    try {
      let kicks = 0;
      const mailer = createMailer({ db: database.db, smtpUrl: smtp.url, from: 'Shop <no-reply@shop.test>', log, sealer, onQueued: () => { kicks += 1; } });
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
      expect(smtp.received[0]).toContain('Thanks');
      expect(await rowFor('record-yes@example.com')).toMatchObject({ text: '', html: null, erasedAt: expect.any(Date), sentAt: expect.any(Date) });
    } finally {
      await smtp.close();
    }
  });

  it('with SMTP_URL: records the message and a mail.send job in one go; the job delivers it once and marks it sent', async () => {
    const smtp = await recordingSmtpServer();
    try {
      let kicks = 0;
      const mailer = createMailer({ db: database.db, smtpUrl: smtp.url, from: 'Shop <no-reply@shop.test>', log, sealer, onQueued: () => { kicks += 1; } });
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
      expect(smtp.received[0]).toContain('Link inside');
      // Sent: the body is erased, the subject stays.
      expect(await storedRow('smtp@example.com')).toMatchObject({ subject: 'Reset', text: '', html: null, sentAt: expect.any(Date), erasedAt: expect.any(Date) });
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
      const mailer = createMailer({ db: database.db, smtpUrl: smtp.url, from: 'Shop <no-reply@shop.test>', log, sealer });
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
    const mailer = createMailer({ db: database.db, smtpUrl: smtp.url, from: 'Shop <no-reply@shop.test>', log, sealer });
    await mailer.send({ to: 'down@example.com', subject: 'Later', text: 'x' });
    const jobs = createJobRunner({ db: database.db, log, pollMs: 0, leaseMs: 10_000, backoff: () => 60_000 });
    registerMailJobs(jobs, { db: database.db, smtpUrl: smtp.url, from: 'Shop <no-reply@shop.test>', sealer, eraseEveryMs: 3_600_000 });
    await jobs.runDue();
    const row = await rowFor('down@example.com');
    expect(row?.sentAt).toBeNull();
    expect(await findJob(database.db, MAIL_SEND_JOB, row!.id)).toMatchObject({ status: 'pending', attempts: 1, lastError: 'The SMTP server could not be reached' });
  });

  it('bodies are sealed at rest (AES-256-GCM): the stored text and html hold neither the body nor its link; another key cannot open them', async () => {
    const mailer = createMailer({ db: database.db, from: 'Shop <no-reply@shop.test>', log, sealer });
    const link = 'http://shop.test/reset-password?token=SECRET-TOKEN-123';
    await mailer.send({ to: 'sealed@example.com', subject: 'Reset your password', text: `Open ${link}`, html: `<a href="${link}">Reset</a>` });
    const stored = await storedRow('sealed@example.com');
    expect(stored?.subject).toBe('Reset your password');
    expect(isSealed(stored!.text) && isSealed(stored!.html)).toBe(true);
    expect(JSON.stringify(stored)).not.toContain('SECRET-TOKEN-123');
    expect(openMail(stored!, sealer)).toMatchObject({ text: `Open ${link}`, html: `<a href="${link}">Reset</a>` });
    expect(() => createMailSealer('another-key-another-key-another-key-00').open(stored!.text)).toThrow('cannot be opened with this key');
    // A tampered body does not open either (authenticated encryption).
    const tampered = `${stored!.text.slice(0, -6)}AAAA${stored!.text.slice(-2)}`;
    expect(() => sealer.open(tampered)).toThrow();
  });

  it('a mail carrying a link is erased once the link expired; others stay until sent; older plain-text bodies get sealed', async () => {
    const mailer = createMailer({ db: database.db, from: 'Shop <no-reply@shop.test>', log, sealer });
    const soon = new Date(Date.now() + 60_000);
    await mailer.send({ to: 'expiring@example.com', subject: 'Link', text: 'token=abc', linkExpiresAt: soon });
    await mailer.send({ to: 'keeps@example.com', subject: 'Order', text: 'Thanks for your order' });
    expect(await eraseOutboxBodies(database.db)).toEqual({ erased: 0 });
    expect((await rowFor('expiring@example.com'))?.text).toBe('token=abc');
    // After the link's expiry the periodic job erases the body.
    const erased = await eraseOutboxBodies(database.db, new Date(soon.getTime() + 1000));
    expect(erased.erased).toBe(1);
    expect(await storedRow('expiring@example.com')).toMatchObject({ subject: 'Link', text: '', html: null, erasedAt: expect.any(Date) });
    expect((await rowFor('keeps@example.com'))?.text).toBe('Thanks for your order');

    // A body written before 0030 (plain text) is sealed by the job.
    await database.db.insert(outbox).values({ id: 'legacyplain0000000000001', to: 'legacy@example.com', subject: 'Old', text: 'old token=xyz', html: '<p>old</p>' });
    expect(await sealPlainOutboxBodies(database.db, sealer)).toBeGreaterThanOrEqual(1);
    const legacy = await storedRow('legacy@example.com');
    expect(isSealed(legacy!.text) && isSealed(legacy!.html)).toBe(true);
    expect(openMail(legacy!, sealer)).toMatchObject({ text: 'old token=xyz', html: '<p>old</p>' });
    expect(await sealPlainOutboxBodies(database.db, sealer)).toBe(0);
  });

  it('Message-ID: the outbox id at the domain of MAIL_FROM', () => {
    expect(messageIdFor('abc', 'Shop <no-reply@shop.example>')).toBe('<abc@shop.example>');
    expect(messageIdFor('abc', 'orders@example.org')).toBe('<abc@example.org>');
    expect(messageIdFor('abc', 'Shop')).toBe('<abc@shop.local>');
  });
});
