import net from 'node:net';
import { eq, ne, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { jobs as jobsTable, outbox } from '../db/schema.ts';
import { startSmtpServer } from '../test/smtp-mock.ts';
import { openTestDatabase } from '../test/test-app.ts';
import { createJobRunner, enqueueJob, findJob } from './jobs.ts';
import { createMailSealer, isSealed } from './mail-seal.ts';
import {
  createMailer, eraseOutboxBodies, MAIL_SEND_JOB, messageIdFor, openMail, registerMailJobs, sealPlainOutboxBodies, SMTP_CONNECTION_TIMEOUT_MS,
  SMTP_DNS_TIMEOUT_MS, SMTP_GREETING_TIMEOUT_MS, SMTP_SOCKET_TIMEOUT_MS, smtpTimeouts,
} from './mailer.ts';

/** The test SMTP server, recording the text of every message it receives. */
async function recordingSmtpServer(opts: { rejectData?: boolean } = {}) {
  const received: string[] = [];
  const smtp = await startSmtpServer(({ data }) => {
    received.push(data);
    return opts.rejectData ? '554 rejected' : '250 queued';
  });
  return { ...smtp, received };
}

/**
 * A server on 127.0.0.1 that accepts connections and, while `hanging`, never sends the SMTP
 * greeting (a hung mail server); otherwise it passes the connection on to `target`.
 */
async function hangingSmtpServer(target: { url: string }) {
  const targetPort = Number(new URL(target.url).port);
  const sockets = new Set<net.Socket>();
  const state = { hanging: true, silentConnections: 0 };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (state.hanging) {
      state.silentConnections += 1;
      return; // accepted, never greets
    }
    const upstream = net.connect(targetPort, '127.0.0.1');
    sockets.add(upstream);
    upstream.on('close', () => { sockets.delete(upstream); socket.destroy(); });
    upstream.on('error', () => socket.destroy());
    socket.pipe(upstream).pipe(socket);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    state,
    close: () => new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    }),
  };
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

  it('SMTP waits are seconds, not minutes, and below half the job lease', () => {
    expect(smtpTimeouts(120_000)).toEqual({
      connectionTimeout: SMTP_CONNECTION_TIMEOUT_MS, greetingTimeout: SMTP_GREETING_TIMEOUT_MS,
      socketTimeout: SMTP_SOCKET_TIMEOUT_MS, dnsTimeout: SMTP_DNS_TIMEOUT_MS,
    });
    for (const ms of [SMTP_CONNECTION_TIMEOUT_MS, SMTP_GREETING_TIMEOUT_MS, SMTP_DNS_TIMEOUT_MS]) expect(ms).toBeLessThanOrEqual(15_000);
    expect(SMTP_SOCKET_TIMEOUT_MS).toBeLessThanOrEqual(30_000);
    expect(smtpTimeouts(6_000)).toEqual({ connectionTimeout: 3_000, greetingTimeout: 3_000, socketTimeout: 3_000, dnsTimeout: 3_000 });
    expect(smtpTimeouts(500).greetingTimeout).toBe(1_000);
  });

  it('an SMTP server that accepts but never greets: the attempt fails within the greeting timeout while other kinds run, and the retry delivers the mail once', async () => {
    // Jobs of earlier tests that could fall due meanwhile are not this test's business.
    await database.db.delete(jobsTable).where(ne(jobsTable.status, 'done'));
    const smtp = await recordingSmtpServer();
    const hanging = await hangingSmtpServer(smtp);
    const from = 'Shop <no-reply@shop.test>';
    // The production lease (120 s): before, the mailer waited half of it (60 s) for the greeting.
    const jobs = createJobRunner({ db: database.db, log, pollMs: 100, leaseMs: 120_000, backoff: () => 60_000 });
    try {
      registerMailJobs(jobs, { db: database.db, smtpUrl: hanging.url, from, sealer, eraseEveryMs: 3_600_000 });
      const otherRanAt: number[] = [];
      jobs.register('other.work', async () => { otherRanAt.push(Date.now()); });
      const mailer = createMailer({ db: database.db, smtpUrl: hanging.url, from, log, sealer, onQueued: () => jobs.kick() });
      jobs.start();
      const sentAt = Date.now();
      await mailer.send({ to: 'hung@example.com', subject: 'Hung', text: 'Delivered once' });
      const row = await rowFor('hung@example.com');
      await expect.poll(() => hanging.state.silentConnections, { timeout: 5000, interval: 20 }).toBe(1);

      // While the mail waits for the greeting, another kind's job falling due runs at the next poll.
      const enqueuedAt = Date.now();
      await enqueueJob(database.db, { kind: 'other.work', dedupeKey: 'while-hung' });
      await expect.poll(() => otherRanAt.length, { timeout: 5000, interval: 20 }).toBe(1);
      expect(otherRanAt[0]! - enqueuedAt).toBeLessThan(2_000);

      // The attempt fails within the greeting timeout (not half the lease) and is retried later.
      await expect.poll(async () => (await findJob(database.db, MAIL_SEND_JOB, row!.id))?.status, {
        timeout: SMTP_GREETING_TIMEOUT_MS + 10_000, interval: 100,
      }).toBe('pending');
      const failedAfter = Date.now() - sentAt;
      expect(failedAfter).toBeGreaterThanOrEqual(SMTP_GREETING_TIMEOUT_MS - 1_000);
      expect(failedAfter).toBeLessThan(SMTP_GREETING_TIMEOUT_MS + 5_000);
      const waiting = await findJob(database.db, MAIL_SEND_JOB, row!.id);
      expect(waiting).toMatchObject({ status: 'pending', attempts: 1, lastError: 'The SMTP server did not answer in time', lockedUntil: null });
      expect(waiting!.runAt.getTime()).toBeGreaterThan(Date.now() + 30_000);
      expect(smtp.received).toHaveLength(0);
      expect((await storedRow('hung@example.com'))?.sentAt).toBeNull();
      await jobs.stop();

      // The server answers again; the retry (brought forward, on an instance polling no more) delivers the message once.
      hanging.state.hanging = false;
      await database.db.update(jobsTable).set({ runAt: new Date(Date.now() - 1000) }).where(eq(jobsTable.id, waiting!.id));
      const later = runnerFor(hanging.url);
      expect(await later.runDue()).toBe(1);
      expect(await later.runDue()).toBe(0);
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]).toContain(`Message-ID: <${row!.id}@shop.test>`);
      expect(await findJob(database.db, MAIL_SEND_JOB, row!.id)).toMatchObject({ status: 'done', attempts: 2, result: { sent: true } });
      expect(hanging.state.silentConnections).toBe(1);
    } finally {
      await jobs.stop();
      await hanging.close();
      await smtp.close();
    }
  }, 40_000);

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
