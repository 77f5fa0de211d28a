import {
  FORGOT_PASSWORD_MESSAGE, INVALID_SIGNUP_TOKEN, SIGNUP_CHECK_EMAIL, USER_EXISTS,
} from '@shop/contracts';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, passwordResets, signupRequests, users } from '../../db/schema.ts';
import { ACCESS_COOKIE, REFRESH_COOKIE, REFRESH_COOKIE_PATH } from '../../lib/auth.ts';
import { createHeldBackgroundTasks } from '../../lib/background.ts';
import { hashToken } from '../../lib/tokens.ts';
import { createTestApp, createUser, type TestApp } from '../../test/test-app.ts';
import { ALREADY_REGISTERED_SUBJECT, CONFIRM_SIGNUP_SUBJECT } from './account-mails.ts';
import { authCookies, latestMailTo, signUpAndConfirm, tokenFromLink } from './users.test-helpers.ts';

const CHECK_EMAIL = { message: SIGNUP_CHECK_EMAIL };
const INVALID_TOKEN = { message: INVALID_SIGNUP_TOKEN, code: 'INVALID_SIGNUP_TOKEN' };

describe('sign-up by e-mail confirmation', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ env: { PUBLIC_URL: 'https://shop.example.com' } }); });
  afterAll(async () => { await t.close(); });

  const signUp = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/users/signup', payload });
  const confirm = (token: string) => t.app.inject({ method: 'POST', url: '/api/users/confirm-signup', payload: { token } });
  const userCount = async (email: string) =>
    (await t.database.db.select({ n: count() }).from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`))[0]?.n;

  it('a new address: 202 and no account yet; the mailed single-use link creates it and signs in', async () => {
    const res = await signUp({ name: '  Ada Lovelace ', email: 'Ada@Example.com', password: 'correct horse' });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual(CHECK_EMAIL);
    expect(res.cookies).toEqual([]);

    const mail = await latestMailTo(t, 'ada@example.com');
    expect(mail?.subject).toBe(CONFIRM_SIGNUP_SUBJECT);
    expect(mail?.text).toMatch(/^https:\/\/shop\.example\.com\/confirm-signup\?token=[\w-]{43}$/m);
    expect(mail?.text).toContain('Hello Ada Lovelace,');
    expect(await userCount('ada@example.com')).toBe(0);

    const token = tokenFromLink(mail!.text, '/confirm-signup');
    const [pending] = await t.database.db.select().from(signupRequests).where(eq(signupRequests.email, 'ada@example.com'));
    expect(pending?.tokenHash).toBe(hashToken(token));
    expect(JSON.stringify(pending)).not.toContain(token);
    expect(pending?.passwordHash).toMatch(/^\$argon2id\$/);
    const ttl = pending!.expiresAt.getTime() - Date.now();
    expect(ttl).toBeGreaterThan(23.9 * 3_600_000);
    expect(ttl).toBeLessThanOrEqual(24 * 3_600_000);

    const created = await confirm(token);
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(Object.keys(body).sort()).toEqual(['_id', 'email', 'isAdmin', 'name']);
    expect(body).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com', isAdmin: false });
    expect(created.cookies.find((c) => c.name === ACCESS_COOKIE)).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(created.cookies.find((c) => c.name === REFRESH_COOKIE)).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: REFRESH_COOKIE_PATH });
    const current = await t.app.inject({ method: 'GET', url: '/api/users/current', headers: { cookie: authCookies(created).header } });
    expect(current.json()).toEqual(body);
    const signIn = await t.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email: 'ada@example.com', password: 'correct horse' } });
    expect(signIn.statusCode).toBe(200);

    const again = await confirm(token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(INVALID_TOKEN);
    expect(await userCount('ada@example.com')).toBe(1);
  });

  it('a known address (any case): the same 202, no cookies, no second account; the owner gets "you already have an account"', async () => {
    const owner = await createUser(t, { name: 'Taken Owner', email: 'taken@example.com', password: 'owner-password' });
    const res = await signUp({ name: 'Someone', email: 'TAKEN@example.COM', password: 'password123' });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual(CHECK_EMAIL);
    expect(res.cookies).toEqual([]);

    const mail = await latestMailTo(t, 'taken@example.com');
    expect(mail?.subject).toBe(ALREADY_REGISTERED_SUBJECT);
    expect(mail?.text).toContain('Hello Taken Owner,');
    expect(mail?.text).toContain('https://shop.example.com/signin');
    expect(mail?.text).toContain('https://shop.example.com/forgot-password');
    expect(mail?.text).not.toContain('token=');
    expect(await t.database.db.select().from(signupRequests).where(eq(signupRequests.email, 'taken@example.com'))).toEqual([]);
    expect(await userCount('taken@example.com')).toBe(1);
    const signIn = await t.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email: owner.email, password: 'owner-password' } });
    expect(signIn.statusCode).toBe(200);
  });

  it('answers a known and an unknown address with the same status, headers and body', async () => {
    await createUser(t, { email: 'same-answer@example.com' });
    const known = await signUp({ name: 'A', email: 'same-answer@example.com', password: 'password123' });
    const unknown = await signUp({ name: 'A', email: 'nobody-here@example.com', password: 'password123' });
    const shape = (r: typeof known) => ({
      status: r.statusCode,
      body: r.body,
      headers: Object.keys(r.headers).filter((h) => h !== 'date' && h !== 'x-request-id').sort(),
      length: r.headers['content-length'],
    });
    expect(shape(known)).toEqual(shape(unknown));
    await t.app.ctx.background.flush();
  });

  it('keeps ?redirect in the link; refuses a redirect that leaves the shop', async () => {
    expect((await signUp({ name: 'R', email: 'redirect@example.com', password: 'password123', redirect: '/shipping' })).statusCode).toBe(202);
    expect((await latestMailTo(t, 'redirect@example.com'))?.text).toMatch(/\/confirm-signup\?token=[\w-]{43}&redirect=%2Fshipping$/m);
    for (const redirect of ['//evil.example', 'https://evil.example', '/\\evil.example', 'shipping']) {
      const res = await signUp({ name: 'R', email: 'redirect2@example.com', password: 'password123', redirect });
      expect(res.statusCode, redirect).toBe(400);
      expect(res.json().fieldErrors).toEqual({ redirect: 'Redirect must be a path inside the shop' });
    }
  });

  it('refuses an unknown, expired or voided token with 400, and an address taken meanwhile with 409', async () => {
    expect((await confirm('made-up-token')).json()).toEqual(INVALID_TOKEN);

    await signUp({ name: 'Slow', email: 'slow@example.com', password: 'password123' });
    const slow = tokenFromLink((await latestMailTo(t, 'slow@example.com'))!.text, '/confirm-signup');
    await t.database.db.update(signupRequests).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(signupRequests.tokenHash, hashToken(slow)));
    const expired = await confirm(slow);
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual(INVALID_TOKEN);

    // Two sign-ups for one address: the first link used voids the other.
    await signUp({ name: 'Twice', email: 'twice@example.com', password: 'password123' });
    const first = tokenFromLink((await latestMailTo(t, 'twice@example.com'))!.text, '/confirm-signup');
    await signUp({ name: 'Twice', email: 'twice@example.com', password: 'password456' });
    const second = tokenFromLink((await latestMailTo(t, 'twice@example.com'))!.text, '/confirm-signup');
    expect(second).not.toBe(first);
    expect((await confirm(second)).statusCode).toBe(201);
    expect((await confirm(first)).json()).toEqual(INVALID_TOKEN);

    // Pending link, then the address gets an account another way: 409, no second account.
    await signUp({ name: 'Late', email: 'late@example.com', password: 'password123' });
    const late = tokenFromLink((await latestMailTo(t, 'late@example.com'))!.text, '/confirm-signup');
    await createUser(t, { email: 'late@example.com' });
    const taken = await confirm(late);
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ message: USER_EXISTS, code: 'CONFLICT', fieldErrors: { email: USER_EXISTS } });
    expect(taken.cookies).toEqual([]);
    expect(await userCount('late@example.com')).toBe(1);
  });

  it('lets only one of several concurrent confirmations with the same link create the account', async () => {
    await signUp({ name: 'Racer', email: 'race@example.com', password: 'password123' });
    const token = tokenFromLink((await latestMailTo(t, 'race@example.com'))!.text, '/confirm-signup');
    const results = await Promise.all([1, 2, 3].map(() => confirm(token)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 400, 400]);
    expect(await userCount('race@example.com')).toBe(1);
  });

  it('validates the body with 400 and field errors, and never makes an administrator', async () => {
    const res = await signUp({ name: '', email: 'not-an-email', password: 'short' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      message: 'Name is required',
      code: 'VALIDATION_ERROR',
      fieldErrors: { name: 'Name is required', email: 'Please enter a valid email address', password: 'Password must be at least 8 characters' },
    });
    const created = await signUpAndConfirm(t, { name: 'Mallory', email: 'mallory@example.com', password: 'password123', isAdmin: true } as never);
    expect(created.statusCode).toBe(201);
    expect(created.json().isAdmin).toBe(false);
    const noToken = await t.app.inject({ method: 'POST', url: '/api/users/confirm-signup', payload: {} });
    expect(noToken.statusCode).toBe(400);
    expect(noToken.json().fieldErrors).toEqual({ token: 'Confirmation token is required' });
  });
});

describe('sign-up and forgot-password answer before any lookup (by construction)', () => {
  let t: TestApp;
  const background = createHeldBackgroundTasks();
  beforeAll(async () => { t = await createTestApp({ deps: { background } }); });
  afterAll(async () => {
    await background.release();
    await t.close();
  });

  const outboxTo = async (to: string) => (await t.database.db.select().from(outbox).where(eq(outbox.to, to)));

  it('the answer is sent while the lookup and the mail are still queued, identically for known and unknown addresses', async () => {
    await createUser(t, { email: 'known@example.com' });
    const answers = [
      await t.app.inject({ method: 'POST', url: '/api/users/signup', payload: { name: 'K', email: 'known@example.com', password: 'password123' } }),
      await t.app.inject({ method: 'POST', url: '/api/users/signup', payload: { name: 'U', email: 'unknown@example.com', password: 'password123' } }),
      await t.app.inject({ method: 'POST', url: '/api/users/forgot-password', payload: { email: 'known@example.com' } }),
      await t.app.inject({ method: 'POST', url: '/api/users/forgot-password', payload: { email: 'unknown@example.com' } }),
    ];
    expect(answers.map((r) => [r.statusCode, r.json()])).toEqual([
      [202, CHECK_EMAIL], [202, CHECK_EMAIL], [200, { message: FORGOT_PASSWORD_MESSAGE }], [200, { message: FORGOT_PASSWORD_MESSAGE }],
    ]);
    // Nothing has been looked up or written yet: one queued task per request, whatever the address.
    expect(background.queued()).toEqual(['sign-up', 'sign-up', 'forgot-password', 'forgot-password']);
    expect(await outboxTo('known@example.com')).toEqual([]);
    expect(await t.database.db.select().from(signupRequests)).toEqual([]);
    expect(await t.database.db.select().from(passwordResets)).toEqual([]);

    await background.release();
    expect((await outboxTo('known@example.com')).map((m) => m.subject).sort()).toEqual(['Reset your password', ALREADY_REGISTERED_SUBJECT]);
    expect((await outboxTo('unknown@example.com')).map((m) => m.subject)).toEqual([CONFIRM_SIGNUP_SUBJECT]);
  });
});

describe('sign-up and forgot-password timing: known and unknown addresses within noise', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => { await t.close(); });

  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.floor(s.length / 2)]!;
  };

  it('medians of many interleaved requests differ by less than the noise bound', async () => {
    await createUser(t, { email: 'timed@example.com' });
    const samples = { signupKnown: [] as number[], signupUnknown: [] as number[], forgotKnown: [] as number[], forgotUnknown: [] as number[] };
    const time = async (payload: object, url: string) => {
      const start = process.hrtime.bigint();
      const res = await t.app.inject({ method: 'POST', url, payload });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      expect(res.statusCode).toBeLessThan(300);
      await t.app.ctx.background.flush(); // the work after the answer must not overlap the next measurement
      return ms;
    };
    for (let i = 0; i < 25; i += 1) {
      samples.signupKnown.push(await time({ name: 'T', email: 'timed@example.com', password: 'password123' }, '/api/users/signup'));
      samples.signupUnknown.push(await time({ name: 'T', email: `timed-${i}@example.com`, password: 'password123' }, '/api/users/signup'));
      samples.forgotUnknown.push(await time({ email: `ghost-${i}@example.com` }, '/api/users/forgot-password'));
      samples.forgotKnown.push(await time({ email: 'timed@example.com' }, '/api/users/forgot-password'));
    }
    // Paired differences (each known request next to an unknown one) cancel the drift of a busy
    // machine. Loose on purpose: a lookup plus argon2 before answering (what sign-up did) costs
    // tens of ms, far above this bound; the exact proof is the by-construction test above.
    const pairedMedian = (a: number[], b: number[]) => median(a.map((x, i) => x - (b[i] ?? x)));
    const bound = (a: number[], b: number[]) => Math.max(10, 0.5 * Math.max(median(a), median(b)));
    expect(Math.abs(pairedMedian(samples.signupKnown, samples.signupUnknown))).toBeLessThan(bound(samples.signupKnown, samples.signupUnknown));
    expect(Math.abs(pairedMedian(samples.forgotKnown, samples.forgotUnknown))).toBeLessThan(bound(samples.forgotKnown, samples.forgotUnknown));
  });

  it('while the database does not answer: the outage 503 for sign-up and forgot-password (the same for every address), not a "check your e-mail" for a request nobody stored', async () => {
    const ping = t.database.ping;
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    t.database.ping = () => Promise.reject(refused);
    try {
      for (const [url, payload] of [
        ['/api/users/signup', { name: 'Outage Visitor', email: 'outage-visitor@example.com', password: 'correct horse' }],
        ['/api/users/forgot-password', { email: 'outage-visitor@example.com' }],
      ] as const) {
        const res = await t.app.inject({ method: 'POST', url, payload });
        expect(res.statusCode, url).toBe(503);
        expect(res.headers['retry-after'], url).toBeDefined();
      }
    } finally {
      t.database.ping = ping;
    }
    expect(await t.database.db.select({ n: count() }).from(signupRequests).where(eq(signupRequests.email, 'outage-visitor@example.com'))).toEqual([{ n: 0 }]);
    // Once it answers again, so does sign-up.
    const again = await t.app.inject({ method: 'POST', url: '/api/users/signup', payload: { name: 'Outage Visitor', email: 'outage-visitor@example.com', password: 'correct horse' } });
    expect(again.statusCode).toBe(202);
  });
});
