import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.ts';
import type { Database } from '../db/client.ts';
import { outbox, users } from '../db/schema.ts';
import { captureLog, type CapturedLog } from '../test/log-capture.ts';
import { openTestDatabase, testConfig } from '../test/test-app.ts';
import { newId } from './ids.ts';
import { redactSecrets, serializeError } from './logging.ts';
import { DEV_MAIL_LOG_MESSAGE, openMail } from './mailer.ts';
import { hashPassword } from './passwords.ts';

const SECRET_EMAIL = 'private.person@example.com';
const SECRET_PASSWORD = 'my-secret-password-123';
const SECRET_TOKEN = 'tok_5f2b9c0e8a7d4e1fb3c6a9d2e7f1c4b8';

async function startApp(env: Record<string, string>, log: CapturedLog): Promise<{ app: App; database: Database; cleanup: () => Promise<void>; hash: string }> {
  const opened = await openTestDatabase();
  const app = await buildApp({ config: testConfig(env), database: opened.database, logStream: log.stream });
  const hash = await hashPassword(SECRET_PASSWORD);
  // A use case whose query fails with the e-mail and the password hash among its parameters, as
  // the sign-up once did: drizzle puts them in its error message and `params`.
  app.post('/api/test/duplicate-user', { config: { access: 'public' } }, async () => {
    const row = { name: 'Dup', email: SECRET_EMAIL, passwordHash: hash };
    await opened.database.db.insert(users).values({ id: newId(), ...row });
    await opened.database.db.insert(users).values({ id: newId(), ...row });
    return {};
  });
  await app.ready();
  return { app, database: opened.database, cleanup: opened.cleanup, hash };
}

describe('logs: method, route, status and request id; never bodies, query strings, e-mails, hashes or tokens', () => {
  const log = captureLog();
  let app: App;
  let database: Database;
  let cleanup: () => Promise<void>;
  let hash: string;
  beforeAll(async () => {
    ({ app, database, cleanup, hash } = await startApp({ LOG_LEVEL: 'info' }, log));
  });
  afterAll(async () => {
    await app.close();
    await cleanup();
  });

  it('a failing database query: one error line with the SQL but none of its parameters, and a request line', async () => {
    log.clear();
    const res = await app.inject({ method: 'POST', url: `/api/test/duplicate-user?email=${encodeURIComponent(SECRET_EMAIL)}&token=${SECRET_TOKEN}`, payload: {} });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Internal Server Error', code: 'INTERNAL' });

    const text = log.text();
    expect(text).not.toContain(SECRET_EMAIL);
    expect(text).not.toContain(hash);
    expect(text).not.toContain('$argon2');
    expect(text).not.toContain(SECRET_TOKEN);
    expect(text).not.toMatch(/params:/);

    const entries = log.entries();
    const error = entries.find((e) => e.msg === 'request failed');
    const done = entries.find((e) => e.msg === 'request completed');
    expect(error).toMatchObject({ method: 'POST', route: '/api/test/duplicate-user', status: 500 });
    expect(error?.reqId).toBeTruthy();
    expect(done).toMatchObject({ method: 'POST', route: '/api/test/duplicate-user', status: 500, reqId: error?.reqId });
    expect(done).not.toHaveProperty('url');
    const err = error?.err as Record<string, unknown>;
    expect(err.type).toBe('DrizzleQueryError');
    expect(err.message).toMatch(/^Failed query: insert into "users"/);
    expect(err.query).toMatch(/values \(\$1, \$2, \$3, \$4/);
    expect(err).not.toHaveProperty('params');
    expect((err.cause as Record<string, unknown>).code).toBe('23505');
    expect((err.cause as Record<string, unknown>).constraint).toBe('users_email_lower_key');
    expect(err.cause).not.toHaveProperty('detail');
  });

  it('requests that fail with 4xx: route pattern and status, never the body or the query string', async () => {
    log.clear();
    const failing = [
      app.inject({ method: 'POST', url: '/api/users/signin', payload: { email: SECRET_EMAIL, password: `wrong-${SECRET_PASSWORD}` } }),
      app.inject({ method: 'POST', url: '/api/users/signup', payload: { name: 'X', email: SECRET_EMAIL, password: 'short' } }),
      app.inject({ method: 'POST', url: '/api/users/reset-password', payload: { token: SECRET_TOKEN, password: SECRET_PASSWORD } }),
      app.inject({ method: 'GET', url: `/api/products/search?query=${encodeURIComponent(SECRET_EMAIL)}&page=abc` }),
      app.inject({ method: 'GET', url: `/api/products/slug/${encodeURIComponent(SECRET_EMAIL)}` }),
      app.inject({ method: 'GET', url: `/api/users/by-email/${encodeURIComponent(SECRET_EMAIL)}?token=${SECRET_TOKEN}` }),
    ];
    const statuses = (await Promise.all(failing)).map((r) => r.statusCode);
    expect(statuses).toEqual([401, 400, 400, 400, 404, 404]);

    const text = log.text();
    for (const secret of [SECRET_EMAIL, encodeURIComponent(SECRET_EMAIL), SECRET_PASSWORD, SECRET_TOKEN]) expect(text).not.toContain(secret);
    const done = log.entries().filter((e) => e.msg === 'request completed');
    expect(done.map((e) => [e.method, e.route ?? e.path, e.status]).sort()).toEqual([
      ['GET', '/api/products/search', 400],
      ['GET', '/api/products/slug/:slug', 404],
      ['GET', '/api/users/by-email/[email]', 404],
      ['POST', '/api/users/reset-password', 400],
      ['POST', '/api/users/signin', 401],
      ['POST', '/api/users/signup', 400],
    ]);
    for (const e of done) expect(e.reqId).toMatch(/^req-/);
  });

  it('a mail without SMTP stays in the outbox: the info log has neither the link nor the address', async () => {
    const u = { id: newId(), name: 'Reset Me', email: 'reset.me@example.com', passwordHash: hash };
    await database.db.insert(users).values(u);
    log.clear();
    const res = await app.inject({ method: 'POST', url: '/api/users/forgot-password', payload: { email: u.email } });
    expect(res.statusCode).toBe(200);
    await app.ctx.background.flush();
    const [stored] = await database.db.select().from(outbox).where(eq(outbox.to, u.email)).orderBy(desc(outbox.createdAt));
    expect(openMail(stored!, app.ctx.mailSealer).text).toContain('/reset-password?token=');
    const text = log.text();
    expect(text).not.toContain(u.email);
    expect(text).not.toContain('reset-password?token');
    expect(log.entries().some((e) => e.msg === 'mail kept in the outbox (no SMTP_URL)' && typeof e.outboxId === 'string')).toBe(true);
  });
});

describe('the mail development aid', () => {
  it('outside production at LOG_LEVEL=debug: the mail is printed, labelled as a development aid', async () => {
    const log = captureLog();
    const { app, database, cleanup, hash } = await startApp({ LOG_LEVEL: 'debug' }, log);
    try {
      await database.db.insert(users).values({ id: newId(), name: 'Dev', email: 'dev.aid@example.com', passwordHash: hash });
      await app.inject({ method: 'POST', url: '/api/users/forgot-password', payload: { email: 'dev.aid@example.com' } });
      await app.ctx.background.flush();
      const line = log.entries().find((e) => e.msg === DEV_MAIL_LOG_MESSAGE);
      expect(line?.level).toBe(20); // debug
      expect(line?.devMail).toMatchObject({ to: 'dev.aid@example.com', subject: 'Reset your password' });
      expect(String((line?.devMail as { text: string }).text)).toMatch(/\/reset-password\?token=[\w-]{43}/);
    } finally {
      await app.close();
      await cleanup();
    }
  });

  it('in production, even at LOG_LEVEL=debug: never printed', async () => {
    const log = captureLog();
    const { app, database, cleanup, hash } = await startApp({
      NODE_ENV: 'production', LOG_LEVEL: 'debug', PUBLIC_URL: 'https://shop.example.com', SEED_DEMO_DATA: 'false',
    }, log);
    try {
      await database.db.insert(users).values({ id: newId(), name: 'Prod', email: 'prod.user@example.com', passwordHash: hash });
      const res = await app.inject({ method: 'POST', url: '/api/users/forgot-password', payload: { email: 'prod.user@example.com' } });
      expect(res.statusCode).toBe(200);
      await app.ctx.background.flush();
      const [stored] = await database.db.select().from(outbox).where(eq(outbox.to, 'prod.user@example.com'));
      const mail = stored && openMail(stored, app.ctx.mailSealer);
      expect(mail?.text).toContain('https://shop.example.com/reset-password?token=');
      const text = log.text();
      expect(text).not.toContain(DEV_MAIL_LOG_MESSAGE);
      expect(text).not.toContain('prod.user@example.com');
      expect(text).not.toContain('reset-password?token');
    } finally {
      await app.close();
      await cleanup();
    }
  });
});

describe('serializeError and redactSecrets', () => {
  it('drop parameters, hashes, e-mail addresses and tokens from any error text', () => {
    const err = new Error(`Failed query: select 1 where email = $1\nparams: ${SECRET_EMAIL},$argon2id$v=19$m=19456,t=2,p=1$abc$def`, {
      cause: Object.assign(new Error(`duplicate key for ${SECRET_EMAIL}`), { code: '23505', detail: `Key (email)=(${SECRET_EMAIL}) already exists.` }),
    });
    const out = JSON.stringify(serializeError(err));
    expect(out).toContain('Failed query: select 1 where email = $1');
    expect(out).not.toContain(SECRET_EMAIL);
    expect(out).not.toContain('argon2');
    expect(out).not.toContain('already exists');
    expect(redactSecrets(`Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlLXNpZ25hdHVyZQ /reset?token=${SECRET_TOKEN}`))
      .toBe('Bearer [token] /reset?token=[redacted]');
  });
});

describe('readable log lines (LOG_FORMAT=pretty)', () => {
  it('writes one readable line per entry, secrets still redacted by the serializers', async () => {
    const { PassThrough } = await import('node:stream');
    const { pino } = await import('pino');
    const { loggerOptions, prettyStream } = await import('./logging.ts');
    const sink = new PassThrough();
    let text = '';
    sink.on('data', (chunk: Buffer) => { text += chunk.toString(); });
    const options = loggerOptions('info', prettyStream(sink));
    const log = pino(options, options.stream!);
    log.info({ route: '/api/products/:id', status: 200 }, 'request completed');
    log.error({ err: new Error(`lookup failed for ${SECRET_EMAIL}`) }, 'query failed');
    await new Promise((r) => setTimeout(r, 50));
    const lines = text.trim().split('\n');
    expect(lines[0]).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: request completed/);
    expect(lines[0]).toContain('/api/products/:id');
    expect(text).toMatch(/ERROR: query failed/);
    expect(text).not.toContain(SECRET_EMAIL);
    expect(text.trimStart().startsWith('{')).toBe(false);
  });
});
