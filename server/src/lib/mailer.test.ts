import { once } from 'node:events';
import net from 'node:net';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { outbox } from '../db/schema.ts';
import { openTestDatabase } from '../test/test-app.ts';
import { createMailer } from './mailer.ts';

/** A minimal SMTP server (the protocol nodemailer speaks) that records what it receives. */
async function startSmtpServer(opts: { rejectData?: boolean } = {}) {
  const received: string[] = [];
  const server = net.createServer((socket) => {
    let inData = false;
    let data = '';
    let buffer = '';
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let idx: number;
      while ((idx = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, idx);
        buffer = buffer.slice(idx + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            received.push(data);
            data = '';
            socket.write(opts.rejectData ? '554 rejected\r\n' : '250 queued\r\n');
          } else {
            data += `${line}\n`;
          }
          continue;
        }
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === 'EHLO' || cmd === 'HELO') socket.write('250 test\r\n');
        else if (cmd === 'DATA') { inData = true; socket.write('354 go ahead\r\n'); }
        else if (cmd === 'QUIT') { socket.end('221 bye\r\n'); }
        else socket.write('250 ok\r\n');
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise<void>((r) => server.close(() => r())) };
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

  it('with SMTP_URL: records, delivers over SMTP in the background and marks it sent', async () => {
    const smtp = await startSmtpServer();
    try {
      const mailer = createMailer({ db: database.db, smtpUrl: smtp.url, from: 'Shop <no-reply@shop.test>', log });
      await mailer.send({ to: 'smtp@example.com', subject: 'Reset', text: 'Link inside', html: '<p>Link inside</p>' });
      expect(await rowFor('smtp@example.com')).toBeDefined();
      await mailer.flush?.();
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]).toContain('Subject: Reset');
      expect(smtp.received[0]).toContain('To: smtp@example.com');
      expect((await rowFor('smtp@example.com'))?.sentAt).toBeInstanceOf(Date);
    } finally {
      await smtp.close();
    }
  });

  it('keeps the message in the outbox, unsent, when SMTP refuses it', async () => {
    const smtp = await startSmtpServer({ rejectData: true });
    try {
      const mailer = createMailer({ db: database.db, smtpUrl: smtp.url, from: 'Shop <no-reply@shop.test>', log });
      await mailer.send({ to: 'refused@example.com', subject: 'Nope', text: 'x' });
      await mailer.flush?.();
      expect(await rowFor('refused@example.com')).toMatchObject({ subject: 'Nope', sentAt: null });
    } finally {
      await smtp.close();
    }
  });
});
