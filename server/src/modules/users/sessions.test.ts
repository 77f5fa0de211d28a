import { ACCESS_TOKEN_EXPIRED, REFRESH_TOKEN_MISSING, REFRESH_TOKEN_REUSED, SESSION_EXPIRED, SIGNED_OUT_MESSAGE } from '@shop/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshTokens, sessions } from '../../db/schema.ts';
import { ACCESS_COOKIE, REFRESH_COOKIE } from '../../lib/auth.ts';
import { hashToken } from '../../lib/tokens.ts';
import { createTestApp, createUser, type TestApp, type TestUser } from '../../test/test-app.ts';
import { REFRESH_REUSE_GRACE_MS } from './refresh-session.ts';
import { accessCookie, authCookies, clearedCookieNames, refreshCookie } from './users.test-helpers.ts';

const NOT_SIGNED_IN = { message: 'Not authorized, please sign in', code: 'UNAUTHORIZED' };

describe('sessions: refresh-token, signout, current', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => { await t.close(); });

  const refresh = (token?: string) =>
    t.app.inject({ method: 'POST', url: '/api/users/refresh-token', headers: token === undefined ? {} : { cookie: refreshCookie(token) } });
  const current = (access: string) => t.app.inject({ method: 'GET', url: '/api/users/current', headers: { cookie: accessCookie(access) } });
  const profile = (access: string) =>
    t.app.inject({ method: 'PUT', url: '/api/users/profile', headers: { cookie: accessCookie(access) }, payload: { name: 'Still Me', email: `me-${Date.now()}@example.com` } });

  describe('GET /api/users/current', () => {
    it('answers null (200) when signed out or with a bad token', async () => {
      const anonymous = await t.app.inject({ method: 'GET', url: '/api/users/current' });
      expect(anonymous.statusCode).toBe(200);
      expect(anonymous.body).toBe('null');
      const garbage = await current('not-a-jwt');
      expect(garbage.statusCode).toBe(200);
      expect(garbage.body).toBe('null');
    });

    it('answers 401 ACCESS_TOKEN_EXPIRED when only a live refresh cookie is left, so the client refreshes and asks again', async () => {
      const u = await createUser(t);
      const lapsed = await t.app.inject({ method: 'GET', url: '/api/users/current', headers: { cookie: refreshCookie(u.refreshToken) } });
      expect(lapsed.statusCode).toBe(401);
      expect(lapsed.json()).toEqual({ message: ACCESS_TOKEN_EXPIRED, code: 'ACCESS_TOKEN_EXPIRED' });
      const refreshed = await refresh(u.refreshToken);
      expect(refreshed.statusCode).toBe(200);
      expect((await current(authCookies(refreshed).access)).json()).toMatchObject({ _id: u.id });
      // the spent refresh token alone no longer suggests a live session (and a GET never revokes anything)
      const stale = await t.app.inject({ method: 'GET', url: '/api/users/current', headers: { cookie: refreshCookie(u.refreshToken) } });
      expect(stale.statusCode).toBe(200);
      expect(stale.body).toBe('null');
      expect((await refresh(authCookies(refreshed).refresh)).statusCode).toBe(200);
    });

    it('answers null for a refresh cookie of a revoked session', async () => {
      const u = await createUser(t);
      await t.database.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.userId, u.id));
      const res = await t.app.inject({ method: 'GET', url: '/api/users/current', headers: { cookie: u.cookie } });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe('null');
    });

    it('answers the user (no hash) when signed in', async () => {
      const u = await createUser(t, { name: 'Cur Rent' });
      const res = await current(u.accessToken);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ _id: u.id, name: 'Cur Rent', email: u.email, isAdmin: false });
    });
  });

  describe('POST /api/users/refresh-token', () => {
    let u: TestUser;
    beforeAll(async () => { u = await createUser(t); });

    it('rotates: new refresh and access cookies for the same session, the old refresh token marked used', async () => {
      const res = await refresh(u.refreshToken);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ _id: u.id, name: u.name, email: u.email, isAdmin: false });
      const next = authCookies(res);
      expect(next.refresh).not.toBe('');
      expect(next.refresh).not.toBe(u.refreshToken);
      expect(next.access).not.toBe('');

      const [oldRow] = await t.database.db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, hashToken(u.refreshToken)));
      const [newRow] = await t.database.db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, hashToken(next.refresh)));
      expect(oldRow?.usedAt).toBeInstanceOf(Date);
      expect(newRow?.usedAt).toBeNull();
      expect(newRow?.sessionId).toBe(oldRow?.sessionId);

      expect((await current(next.access)).json()).toMatchObject({ _id: u.id });
      // and the chain goes on
      const again = await refresh(next.refresh);
      expect(again.statusCode).toBe(200);
    });

    it('revokes the whole session when a used refresh token is presented again', async () => {
      const victim = await createUser(t);
      const first = await refresh(victim.refreshToken); // the legitimate client rotates
      expect(first.statusCode).toBe(200);
      const legit = authCookies(first);
      // past the grace window for tabs sharing the cookie (refresh-grace.test.ts)
      await t.database.db.update(refreshTokens).set({ usedAt: new Date(Date.now() - REFRESH_REUSE_GRACE_MS - 1000) })
        .where(eq(refreshTokens.tokenHash, hashToken(victim.refreshToken)));

      const replay = await refresh(victim.refreshToken); // a stolen copy of the old token
      expect(replay.statusCode).toBe(401);
      expect(replay.json()).toEqual({ message: REFRESH_TOKEN_REUSED, code: 'REFRESH_TOKEN_REUSED' });
      expect(clearedCookieNames(replay).sort()).toEqual([ACCESS_COOKIE, REFRESH_COOKIE].sort());

      // every token of that session is dead: the newest refresh token and the access tokens
      const later = await refresh(legit.refresh);
      expect(later.statusCode).toBe(401);
      expect(later.json()).toEqual({ message: SESSION_EXPIRED, code: 'SESSION_EXPIRED' });
      expect((await current(legit.access)).body).toBe('null');
      expect((await current(victim.accessToken)).body).toBe('null');
      const write = await profile(legit.access);
      expect(write.statusCode).toBe(401);
      expect(write.json()).toEqual(NOT_SIGNED_IN);

      const [session] = await t.database.db.select().from(sessions).where(eq(sessions.userId, victim.id));
      expect(session?.revokedAt).toBeInstanceOf(Date);
    });

    it('lets only one of two concurrent refreshes with the same token rotate it (the other: 200, no new tokens)', async () => {
      const racer = await createUser(t);
      const results = await Promise.all([refresh(racer.refreshToken), refresh(racer.refreshToken)]);
      expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
      expect(results.filter((r) => authCookies(r).refresh !== '')).toHaveLength(1);
    });

    it('answers 401 without a refresh cookie', async () => {
      const res = await refresh();
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: REFRESH_TOKEN_MISSING, code: 'REFRESH_TOKEN_MISSING' });
    });

    it('answers 401 for an unknown refresh token', async () => {
      const res = await refresh('this-token-was-never-issued');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: SESSION_EXPIRED, code: 'SESSION_EXPIRED' });
    });

    it('answers 401 for an expired refresh token and for an expired session', async () => {
      const a = await createUser(t);
      await t.database.db.update(refreshTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(refreshTokens.tokenHash, hashToken(a.refreshToken)));
      const expiredToken = await refresh(a.refreshToken);
      expect(expiredToken.statusCode).toBe(401);
      expect(expiredToken.json()).toEqual({ message: SESSION_EXPIRED, code: 'SESSION_EXPIRED' });

      const b = await createUser(t);
      await t.database.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.userId, b.id));
      const expiredSession = await refresh(b.refreshToken);
      expect(expiredSession.statusCode).toBe(401);
      expect(expiredSession.json()).toEqual({ message: SESSION_EXPIRED, code: 'SESSION_EXPIRED' });
      expect((await current(b.accessToken)).body).toBe('null');
    });

    it('slides the session expiry forward on each refresh', async () => {
      const s = await createUser(t);
      const soon = new Date(Date.now() + 60_000);
      await t.database.db.update(sessions).set({ expiresAt: soon }).where(eq(sessions.userId, s.id));
      expect((await refresh(s.refreshToken)).statusCode).toBe(200);
      const [session] = await t.database.db.select().from(sessions).where(eq(sessions.userId, s.id));
      expect(session!.expiresAt.getTime()).toBeGreaterThan(Date.now() + (t.config.refreshTokenTtlDays - 1) * 86_400_000);
    });
  });

  describe('POST /api/users/signout', () => {
    it('revokes the session named by the refresh cookie and clears both cookies', async () => {
      const u = await createUser(t);
      const res = await t.app.inject({ method: 'POST', url: '/api/users/signout', headers: { cookie: u.cookie } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: SIGNED_OUT_MESSAGE });
      expect(clearedCookieNames(res).sort()).toEqual([ACCESS_COOKIE, REFRESH_COOKIE].sort());
      // the server forgets the session: an access token copied before sign-out no longer works
      expect((await current(u.accessToken)).body).toBe('null');
      expect((await profile(u.accessToken)).statusCode).toBe(401);
      const r = await refresh(u.refreshToken);
      expect(r.statusCode).toBe(401);
      expect(r.json().message).toBe(SESSION_EXPIRED);
    });

    it('revokes the session from the access cookie alone (refresh cookie is path-scoped)', async () => {
      const u = await createUser(t);
      const res = await t.app.inject({ method: 'POST', url: '/api/users/signout', headers: { cookie: accessCookie(u.accessToken) } });
      expect(res.statusCode).toBe(200);
      expect((await current(u.accessToken)).body).toBe('null');
      expect((await refresh(u.refreshToken)).statusCode).toBe(401);
    });

    it('leaves the user’s other sessions alone', async () => {
      const u = await createUser(t);
      const other = await t.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email: u.email, password: u.password } });
      await t.app.inject({ method: 'POST', url: '/api/users/signout', headers: { cookie: u.cookie } });
      expect((await current(authCookies(other).access)).json()).toMatchObject({ _id: u.id });
    });

    it('answers 200 and clears cookies even when signed out already', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/users/signout' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: SIGNED_OUT_MESSAGE });
      expect(clearedCookieNames(res).sort()).toEqual([ACCESS_COOKIE, REFRESH_COOKIE].sort());
    });
  });
});
