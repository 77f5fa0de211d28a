import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../lib/ids.ts';
import { freePortRange } from '../test/ports.ts';
import { postgresOnlySkipReason } from '../test/requirements.ts';
import { startSmtpServer } from '../test/smtp-mock.ts';
import { createScratchPostgres } from '../test/test-app.ts';

// Three app server processes on one scratch PostgreSQL database, each with its own DATA_DIR (three
// machines), all running the background jobs: every expired order is expired (and its stock put
// back) by exactly one instance, every outbox mail reaches the SMTP server exactly once, expired
// sign-in rows are cleaned up, and a mail claimed by an instance that is SIGKILLed mid-send is sent
// by another instance once the claim's lease has run out.
const SKIP = postgresOnlySkipReason();
if (SKIP) console.info(`jobs-once test skipped: ${SKIP}`);

const INSTANCES = 3;
const FIRST_PORT = SKIP ? 0 : await freePortRange(INSTANCES);
const LEASE_SECONDS = 6;
const ORDERS = 30;
const MAILS = 30;
const STOCK = 1000;
const MAIL_DOMAIN = 'shop.test';
const SERVER_DIR = path.resolve(import.meta.dirname, '../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Instance { name: string; port: number; child: ChildProcess; log: string; dataDir: string }

/**
 * The test SMTP server, counting acknowledged deliveries per Message-ID. The first message to
 * `stallAddress` is read to its end and then never answered (the sender hangs there, holding its
 * job's claim), and `stalled` resolves.
 */
async function countingSmtpServer(stallAddress: string) {
  const delivered = new Map<string, number>();
  const deliveredAt = new Map<string, number>();
  let stalledOnce = false;
  let onStall: (messageId: string) => void = () => undefined;
  const stalled = new Promise<string>((resolve) => { onStall = resolve; });
  const smtp = await startSmtpServer(({ rcpt, data }) => {
    const messageId = /^Message-ID: <([^@>]+)@/im.exec(data)?.[1] ?? '(none)';
    if (rcpt === stallAddress && !stalledOnce) {
      stalledOnce = true;
      onStall(messageId);
      return null; // never answered
    }
    delivered.set(messageId, (delivered.get(messageId) ?? 0) + 1);
    deliveredAt.set(messageId, Date.now());
    return '250 queued';
  });
  return { ...smtp, delivered, deliveredAt, stalled };
}

/** The ids of orders each instance's log says it expired (one info line per sweep). */
function expiredByInstance(instances: Instance[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const inst of instances) {
    const ids: string[] = [];
    for (const line of inst.log.split('\n')) {
      if (!line.includes('expired unpaid orders')) continue;
      try {
        ids.push(...((JSON.parse(line) as { orderIds?: string[] }).orderIds ?? []));
      } catch { /* not a JSON log line */ }
    }
    out.set(inst.name, ids);
  }
  return out;
}

describe.skipIf(SKIP)('background work runs once across three instances', () => {
  let scratch: { url: string; drop: () => Promise<void> };
  let smtp: Awaited<ReturnType<typeof countingSmtpServer>>;
  let db: pg.Client;
  const instances: Instance[] = [];
  const productId = newId();
  const userId = newId();
  const pidOf = (claimedBy: string | null) => Number(claimedBy?.split(':').pop());
  const instanceByPid = (pid: number) => instances.find((i) => i.child.pid === pid);

  const startInstance = (n: number): Instance => {
    const port = FIRST_PORT + n;
    const dataDir = mkdtempSync(path.join(tmpdir(), `shop-jobs-${n}-`));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: SERVER_DIR,
      env: {
        ...process.env,
        NODE_ENV: 'test', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: scratch.url,
        DATABASE_POOL_SIZE: '5', REDIS_URL: '', JWT_SECRET: 'jobs-once-test-secret-jobs-once-test-secret',
        LOG_LEVEL: 'info', SEED_DEMO_DATA: 'false', WEB_DIST_DIR: path.join(dataDir, 'no-web'),
        PUBLIC_URL: `http://127.0.0.1:${FIRST_PORT}`, AUTH_RATE_LIMIT_MAX: '100000',
        SMTP_URL: smtp.url, MAIL_FROM: `Shop <no-reply@${MAIL_DOMAIN}>`,
        JOBS_POLL_MS: '100', JOBS_LEASE_SECONDS: String(LEASE_SECONDS),
        ORDER_EXPIRY_MINUTES: '0.02', // sweeps every second
        CLEANUP_EVERY_MINUTES: '0.02',
        SHUTDOWN_DRAIN_SECONDS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const inst: Instance = { name: `app${n + 1}`, port, child, log: '', dataDir };
    child.stdout?.on('data', (d: Buffer) => { inst.log += d.toString(); });
    child.stderr?.on('data', (d: Buffer) => { inst.log += d.toString(); });
    return inst;
  };

  const waitReady = async (inst: Instance, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (inst.child.exitCode !== null) throw new Error(`${inst.name} exited:\n${inst.log}`);
      const ok = await fetch(`http://127.0.0.1:${inst.port}/api/ready`).then((r) => r.ok, () => false);
      if (ok) return;
      if (Date.now() > deadline) throw new Error(`${inst.name} not ready in time:\n${inst.log}`);
      await sleep(200);
    }
  };

  const waitFor = async (what: string, check: () => Promise<boolean>, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(200);
    }
  };

  const forgotPassword = (inst: Instance, email: string) =>
    fetch(`http://127.0.0.1:${inst.port}/api/users/forgot-password`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }),
    }).then((r) => r.status);

  const query = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => (await db.query<T>(sql, params)).rows;

  beforeAll(async () => {
    scratch = await createScratchPostgres();
    smtp = await countingSmtpServer('stall@example.com');
    for (let n = 0; n < INSTANCES; n += 1) instances.push(startInstance(n));
    await Promise.all(instances.map((i) => waitReady(i, 90_000)));
    db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
  }, 120_000);

  afterAll(async () => {
    await db?.end().catch(() => undefined);
    await Promise.all(instances.map(async (i) => {
      if (i.child.exitCode !== null || i.child.signalCode !== null) return;
      i.child.kill('SIGINT');
      await once(i.child, 'exit');
    }));
    for (const i of instances) rmSync(i.dataDir, { recursive: true, force: true });
    await smtp?.close();
    await scratch?.drop();
  }, 60_000);

  it(`expires ${ORDERS} orders, sends ${MAILS} mails and cleans up expired rows, each exactly once`, async () => {
    // One customer, one product whose stock the unpaid orders hold (1-3 each).
    const quantities = Array.from({ length: ORDERS }, (_, i) => (i % 3) + 1);
    const reserved = quantities.reduce((a, b) => a + b, 0);
    const orderIds = quantities.map(() => newId());
    const mailUsers = Array.from({ length: MAILS }, (_, i) => ({ id: newId(), email: `mail-${i}@example.com` }));
    const keep = { sessions: [] as string[], resets: [] as string[], signups: [] as string[], refresh: [] as string[] };
    const expired = { sessions: 0, refreshTokens: 0, resets: 0, signups: 0 };

    await db.query('BEGIN');
    await db.query(`INSERT INTO users (id, name, email, password_hash) VALUES ($1, 'Jobs Customer', 'jobs@example.com', 'x')`, [userId]);
    for (const u of mailUsers) await db.query(`INSERT INTO users (id, name, email, password_hash) VALUES ($1, 'Mail User', $2, 'x')`, [u.id, u.email]);
    await db.query('INSERT INTO users (id, name, email, password_hash) VALUES ($1, \'Stall User\', \'stall@example.com\', \'x\')', [newId()]);
    await db.query(
      `INSERT INTO products (id, name, slug, price, image, category, brand, count_in_stock, description)
       VALUES ($1, 'Jobs Lamp', 'jobs-lamp', 10, '/uploads/lamp.webp', 'Home', 'Lumo', $2, 'A lamp')`,
      [productId, STOCK - reserved],
    );
    for (const [i, id] of orderIds.entries()) {
      // Unpaid, due 1.5 s from now: all three instances are polling when they fall due.
      await db.query(
        `INSERT INTO orders (id, user_id, shipping_address, payment_method, items_price, shipping_price, tax_price, total_price, expires_at)
         VALUES ($1, $2, '{}', 'PayPal', $3, 0, 0, $3, now() + interval '1500 milliseconds')`,
        [id, userId, 10 * quantities[i]!],
      );
      await db.query(
        `INSERT INTO order_items (id, order_id, product_id, name, slug, image, price, quantity) VALUES ($1, $2, $3, 'Jobs Lamp', 'jobs-lamp', '/x.webp', 10, $4)`,
        [newId(), id, productId, quantities[i]],
      );
    }
    // Sign-in rows: expired or long-revoked (to go) and live (to stay).
    for (let i = 0; i < 20; i += 1) {
      const sid = newId();
      const live = i < 5;
      const revokedLongAgo = i >= 5 && i < 10;
      await db.query(
        `INSERT INTO sessions (id, user_id, expires_at, revoked_at) VALUES ($1, $2, now() + $3::interval, $4)`,
        [sid, userId, live || revokedLongAgo ? '30 days' : '-1 hour', revokedLongAgo ? new Date(Date.now() - 2 * 86_400_000) : null],
      );
      const rid = newId();
      await db.query(
        `INSERT INTO refresh_tokens (id, session_id, token_hash, expires_at, used_at) VALUES ($1, $2, $3, now() + $4::interval, $5)`,
        [rid, sid, `hash-${rid}`, live || revokedLongAgo ? '30 days' : '-1 hour', live ? new Date() : null],
      );
      if (live) { keep.sessions.push(sid); keep.refresh.push(rid); } else expired.sessions += 1;
      if (!live && !revokedLongAgo) expired.refreshTokens += 1;
    }
    for (let i = 0; i < 15; i += 1) {
      const id = newId();
      const kind = i < 5 ? 'live' : i < 10 ? 'expired' : 'used';
      await db.query(
        `INSERT INTO password_resets (id, user_id, token_hash, expires_at, used_at) VALUES ($1, $2, $3, now() + $4::interval, $5)`,
        [id, userId, `reset-${id}`, kind === 'expired' ? '-1 minute' : '1 hour', kind === 'used' ? new Date() : null],
      );
      const sid = newId();
      await db.query(
        `INSERT INTO signup_requests (id, name, email, password_hash, token_hash, expires_at, used_at) VALUES ($1, 'S', $2, 'x', $3, now() + $4::interval, $5)`,
        [sid, `signup-${i}@example.com`, `signup-${sid}`, kind === 'expired' ? '-1 minute' : '1 day', kind === 'used' ? new Date() : null],
      );
      if (kind === 'live') { keep.resets.push(id); keep.signups.push(sid); } else { expired.resets += 1; expired.signups += 1; }
    }
    await db.query('COMMIT');

    // M password-reset mails, asked for through the three instances in turn, all at once.
    const statuses = await Promise.all(mailUsers.map((u, i) => forgotPassword(instances[i % INSTANCES]!, u.email)));
    expect(statuses.every((s) => s === 200)).toBe(true);

    const started = Date.now();
    await waitFor('the orders to expire', async () =>
      Number((await query<{ n: string }>('SELECT count(*) AS n FROM orders WHERE stock_released_at IS NOT NULL'))[0]!.n) === ORDERS, 20_000);
    await waitFor('the mails to be sent', async () => {
      const [row] = await query<{ total: string; sent: string }>(
        `SELECT count(*) AS total, count(sent_at) AS sent FROM outbox WHERE "to" LIKE 'mail-%'`);
      return Number(row!.total) === MAILS && Number(row!.sent) === MAILS;
    }, 20_000);
    await waitFor('the cleanup', async () => // sign-up requests are the last table a cleanup run deletes from
      Number((await query<{ n: string }>('SELECT count(*) AS n FROM signup_requests'))[0]!.n) === keep.signups.length, 20_000);
    await sleep(1500); // a few more rounds on every instance: nothing may happen twice
    const elapsed = Date.now() - started;

    // Orders: each expired once, the stock released once.
    const byInstance = expiredByInstance(instances);
    const allExpired = [...byInstance.values()].flat();
    expect(allExpired.sort()).toEqual([...orderIds].sort());
    const [product] = await query<{ count_in_stock: number }>('SELECT count_in_stock FROM products WHERE id = $1', [productId]);
    expect(product!.count_in_stock).toBe(STOCK);
    const expirySweeps = await query<{ expired: number | null; claimed_by: string }>(
      `SELECT (result->>'expired')::int AS expired, claimed_by FROM jobs WHERE kind = 'orders.expire' AND status = 'done'`);
    expect(expirySweeps.reduce((n, s) => n + (s.expired ?? 0), 0)).toBe(ORDERS);

    // Mails: each outbox message reached the SMTP server exactly once.
    const outboxRows = await query<{ id: string }>(`SELECT id FROM outbox WHERE "to" LIKE 'mail-%'`);
    expect(outboxRows).toHaveLength(MAILS);
    const counts = outboxRows.map((r) => smtp.delivered.get(r.id) ?? 0);
    expect(counts.every((c) => c === 1)).toBe(true);
    expect([...smtp.delivered.values()].reduce((a, b) => a + b, 0)).toBe(MAILS);
    const mailJobs = await query<{ status: string; attempts: number; claimed_by: string }>(
      `SELECT status, attempts, claimed_by FROM jobs WHERE kind = 'mail.send'`);
    expect(mailJobs).toHaveLength(MAILS);
    expect(mailJobs.every((j) => j.status === 'done' && j.attempts === 1)).toBe(true);

    // Cleanup: what expired is gone, what is live stays; the counts add up to exactly what went.
    const ids = async (table: string, col = 'id') => (await query<{ id: string }>(`SELECT ${col} AS id FROM ${table}`)).map((r) => r.id).sort();
    expect(await ids('sessions')).toEqual([...keep.sessions].sort());
    expect(await ids('refresh_tokens')).toEqual([...keep.refresh].sort());
    const resetsLeft = await ids('password_resets');
    expect(keep.resets.every((id) => resetsLeft.includes(id))).toBe(true);
    expect(resetsLeft).toHaveLength(keep.resets.length + MAILS); // plus the M links just mailed
    expect(await ids('signup_requests')).toEqual([...keep.signups].sort());
    const cleanups = await query<{ sessions: number; refresh_tokens: number; password_resets: number; signup_requests: number; dedupe_key: string; claimed_by: string }>(
      `SELECT claimed_by, (result->>'sessions')::int AS sessions, (result->>'refreshTokens')::int AS refresh_tokens,
              (result->>'passwordResets')::int AS password_resets, (result->>'signupRequests')::int AS signup_requests, dedupe_key
       FROM jobs WHERE kind = 'users.cleanup' AND status = 'done'`);
    const sum = (k: 'sessions' | 'refresh_tokens' | 'password_resets' | 'signup_requests') => cleanups.reduce((n, c) => n + c[k], 0);
    expect({ sessions: sum('sessions'), refreshTokens: sum('refresh_tokens'), resets: sum('password_resets'), signups: sum('signup_requests') })
      .toEqual(expired);
    expect(new Set(cleanups.map((c) => c.dedupe_key)).size).toBe(cleanups.length);

    const perInstance = (rows: Array<{ claimed_by: string }>) =>
      instances.map((i) => `${i.name}: ${rows.filter((r) => pidOf(r.claimed_by) === i.child.pid).length}`).join(', ');
    console.info(
      `jobs once: ${ORDERS} orders expired once each (by instance: ${[...byInstance].map(([n, l]) => `${n}: ${l.length}`).join(', ')}; ` +
      `${expirySweeps.length} sweeps: ${perInstance(expirySweeps)}), stock ${product!.count_in_stock}/${STOCK}; ` +
      `${MAILS} mails, ${[...smtp.delivered.values()].reduce((a, b) => a + b, 0)} SMTP deliveries (sent by ${perInstance(mailJobs)}); ` +
      `cleanup removed ${JSON.stringify(expired)} in ${cleanups.length} runs (${perInstance(cleanups)}); ` +
      `all done within ${elapsed} ms`,
    );
  }, 60_000);

  it('a mail claimed by an instance that is killed mid-send is sent by another once the lease ends', async () => {
    const status = await forgotPassword(instances[0]!, 'stall@example.com');
    expect(status).toBe(200);
    const messageId = await Promise.race([smtp.stalled, sleep(15_000).then(() => { throw new Error('the stalled mail never arrived'); })]);
    const [claim] = await query<{ status: string; claimed_by: string; attempts: number; locked_until: Date }>(
      `SELECT status, claimed_by, attempts, locked_until FROM jobs WHERE kind = 'mail.send' AND dedupe_key = $1`, [messageId]);
    expect(claim).toMatchObject({ status: 'running', attempts: 1 });
    const holder = instanceByPid(pidOf(claim!.claimed_by));
    expect(holder).toBeDefined();
    holder!.child.kill('SIGKILL');
    const killedAt = Date.now();
    await once(holder!.child, 'exit');

    // Orders falling due after the crash are expired by the survivors, once each.
    const survivors = instances.filter((i) => i !== holder);
    const lateOrders = [newId(), newId(), newId()];
    const [before] = await query<{ count_in_stock: number }>('SELECT count_in_stock FROM products WHERE id = $1', [productId]);
    await db.query('BEGIN');
    await db.query('UPDATE products SET count_in_stock = count_in_stock - 3 WHERE id = $1', [productId]);
    for (const id of lateOrders) {
      await db.query(
        `INSERT INTO orders (id, user_id, shipping_address, payment_method, items_price, shipping_price, tax_price, total_price, expires_at)
         VALUES ($1, $2, '{}', 'PayPal', 10, 0, 0, 10, now() + interval '500 milliseconds')`, [id, userId]);
      await db.query(
        `INSERT INTO order_items (id, order_id, product_id, name, slug, image, price, quantity) VALUES ($1, $2, $3, 'Jobs Lamp', 'jobs-lamp', '/x.webp', 10, 1)`,
        [newId(), id, productId]);
    }
    await db.query('COMMIT');

    await waitFor('the stalled mail to be sent by another instance', async () => (smtp.delivered.get(messageId) ?? 0) > 0, 30_000);
    const takenOverAfterMs = smtp.deliveredAt.get(messageId)! - killedAt;
    await waitFor('the late orders to expire', async () =>
      Number((await query<{ n: string }>('SELECT count(*) AS n FROM orders WHERE id = ANY($1) AND stock_released_at IS NOT NULL', [lateOrders]))[0]!.n) === 3, 15_000);
    await sleep(1000);

    const [done] = await query<{ status: string; claimed_by: string; attempts: number }>(
      `SELECT status, claimed_by, attempts FROM jobs WHERE kind = 'mail.send' AND dedupe_key = $1`, [messageId]);
    expect(done).toMatchObject({ status: 'done', attempts: 2 });
    const sender = instanceByPid(pidOf(done!.claimed_by));
    expect(sender && survivors.includes(sender)).toBe(true);
    expect(smtp.delivered.get(messageId)).toBe(1);
    // Not before the lease the dead instance held had run out.
    expect(smtp.deliveredAt.get(messageId)!).toBeGreaterThanOrEqual(new Date(claim!.locked_until).getTime() - 500);
    const [sent] = await query<{ sent_at: Date | null }>('SELECT sent_at FROM outbox WHERE id = $1', [messageId]);
    expect(sent!.sent_at).not.toBeNull();

    const lateExpired = [...expiredByInstance(survivors).values()].flat().filter((id) => lateOrders.includes(id));
    expect(lateExpired.sort()).toEqual([...lateOrders].sort());
    const [after] = await query<{ count_in_stock: number }>('SELECT count_in_stock FROM products WHERE id = $1', [productId]);
    expect(after!.count_in_stock).toBe(before!.count_in_stock);

    console.info(
      `jobs once, crash: ${holder!.name} (pid ${holder!.child.pid}) SIGKILLed holding the mail's claim (lease ${LEASE_SECONDS} s); ` +
      `${sender!.name} sent it ${takenOverAfterMs} ms later, delivered ${smtp.delivered.get(messageId)} time(s), attempt ${done!.attempts}; ` +
      `${lateOrders.length} orders falling due after the crash expired once each by the survivors`,
    );
  }, 60_000);
});
