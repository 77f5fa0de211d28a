import { REFRESH_TOKEN_REUSED, SESSION_EXPIRED, SESSION_REFRESHED_ELSEWHERE } from '@shop/contracts';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshTokens, sessions } from '../../db/schema.ts';
import { ACCESS_COOKIE, REFRESH_COOKIE } from '../../lib/auth.ts';
import { hashToken } from '../../lib/tokens.ts';
import { createTestApp, createUser, type TestApp } from '../../test/test-app.ts';
import { REFRESH_REUSE_GRACE_MS } from './refresh-session.ts';
import { authCookies, clearedCookieNames, refreshCookie } from './users.test-helpers.ts';

/**
 * Tabs of one browser share the refresh cookie: two refreshes at once with the same token must not
 * sign the user out. The token spent by the latest rotation is forgiven for a short window (answered
 * 200 without new tokens); after it, or for an older token, reuse still revokes the session.
 */
describe('refresh-token: grace window for a just-rotated token', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => { await t.close(); });

  const refresh = (token: string) => t.app.inject({ method: 'POST', url: '/api/users/refresh-token', headers: { cookie: refreshCookie(token) } });
  const cart = (access: string) => t.app.inject({ method: 'GET', url: '/api/cart', headers: { cookie: `${ACCESS_COOKIE}=${access}` } });
  const sessionOf = async (userId: string) => (await t.database.db.select().from(sessions).where(eq(sessions.userId, userId)))[0]!;
  const tokensOf = async (sessionId: string) => t.database.db.select().from(refreshTokens).where(eq(refreshTokens.sessionId, sessionId));
  /** Moves the moment `token` was spent to just past the grace window. */
  const spentLongAgo = (token: string) =>
    t.database.db.update(refreshTokens).set({ usedAt: new Date(Date.now() - REFRESH_REUSE_GRACE_MS - 1000) }).where(eq(refreshTokens.tokenHash, hashToken(token)));

  /** 200 with the message alone: no tokens, nothing issued or cleared, and nothing about the account (id, name, e-mail, role). */
  const expectGraceAnswer = (res: LightMyRequestResponse, user: { id: string; name: string; email: string }) => {
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: SESSION_REFRESHED_ELSEWHERE });
    expect(res.headers['set-cookie']).toBeUndefined();
    for (const secret of [user.id, user.name, user.email, 'isAdmin']) expect(res.body).not.toContain(secret);
  };

  it('is a short named window', () => {
    expect(REFRESH_REUSE_GRACE_MS).toBeGreaterThanOrEqual(10_000);
    expect(REFRESH_REUSE_GRACE_MS).toBeLessThanOrEqual(30_000);
  });

  it('two refreshes at once with the same cookie: one rotates, the other is 200 with no new tokens, and the session goes on', async () => {
    const u = await createUser(t);
    const results = await Promise.all([refresh(u.refreshToken), refresh(u.refreshToken)]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    const rotated = results.filter((r) => r.headers['set-cookie'] !== undefined);
    expect(rotated).toHaveLength(1);
    const winner = authCookies(rotated[0]!);
    expect(winner.access).not.toBe('');
    expect(winner.refresh).not.toBe('');
    expectGraceAnswer(results.find((r) => r !== rotated[0])!, u);

    // the session is alive and only one successor was issued
    const session = await sessionOf(u.id);
    expect(session.revokedAt).toBeNull();
    const tokens = await tokensOf(session.id);
    expect(tokens).toHaveLength(2);
    expect(tokens.filter((r) => r.usedAt === null).map((r) => r.tokenHash)).toEqual([hashToken(winner.refresh)]);

    // the winner's tokens (the browser's shared jar) keep working
    expect((await cart(winner.access)).statusCode).toBe(200);
    const next = await refresh(winner.refresh);
    expect(next.statusCode).toBe(200);
    expect((await cart(authCookies(next).access)).statusCode).toBe(200);
  });

  it('the second tab arriving a moment later gets 200 without tokens, as often as it asks within the window', async () => {
    const u = await createUser(t);
    const first = await refresh(u.refreshToken);
    expect(first.statusCode).toBe(200);
    const winner = authCookies(first);
    expectGraceAnswer(await refresh(u.refreshToken), u);
    expectGraceAnswer(await refresh(u.refreshToken), u); // a third tab
    expect((await tokensOf((await sessionOf(u.id)).id))).toHaveLength(2);
    expect((await cart(winner.access)).statusCode).toBe(200);
    expect((await refresh(winner.refresh)).statusCode).toBe(200);
  });

  it('the same old token presented after the window revokes the session, as before', async () => {
    const u = await createUser(t);
    const first = await refresh(u.refreshToken);
    const winner = authCookies(first);
    await spentLongAgo(u.refreshToken);

    const replay = await refresh(u.refreshToken);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ message: REFRESH_TOKEN_REUSED, code: 'REFRESH_TOKEN_REUSED' });
    expect(clearedCookieNames(replay).sort()).toEqual([ACCESS_COOKIE, REFRESH_COOKIE].sort());
    expect((await sessionOf(u.id)).revokedAt).toBeInstanceOf(Date);

    expect((await cart(winner.access)).statusCode).toBe(401);
    const later = await refresh(winner.refresh);
    expect(later.statusCode).toBe(401);
    expect(later.json()).toEqual({ message: SESSION_EXPIRED, code: 'SESSION_EXPIRED' });
  });

  it('a token two rotations back revokes the session at once, even within the window', async () => {
    const u = await createUser(t);
    const second = authCookies(await refresh(u.refreshToken));
    const third = await refresh(second.refresh);
    expect(third.statusCode).toBe(200);
    const latest = authCookies(third);

    const replay = await refresh(u.refreshToken);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ message: REFRESH_TOKEN_REUSED, code: 'REFRESH_TOKEN_REUSED' });
    expect((await sessionOf(u.id)).revokedAt).toBeInstanceOf(Date);
    expect((await cart(latest.access)).statusCode).toBe(401);
    expect((await refresh(latest.refresh)).statusCode).toBe(401);
  });

  it('gives no grace once the successor itself was used (a token behind the latest rotation)', async () => {
    const u = await createUser(t);
    const second = authCookies(await refresh(u.refreshToken));
    expectGraceAnswer(await refresh(u.refreshToken), u); // still the latest rotation
    expect((await refresh(second.refresh)).statusCode).toBe(200); // now it is not
    const replay = await refresh(u.refreshToken);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe('REFRESH_TOKEN_REUSED');
    expect((await sessionOf(u.id)).revokedAt).toBeInstanceOf(Date);
  });

  it('gives no grace for a session that ended (signed out): 401, nothing issued', async () => {
    const u = await createUser(t);
    const winner = authCookies(await refresh(u.refreshToken));
    const out = await t.app.inject({ method: 'POST', url: '/api/users/signout', headers: { cookie: winner.header } });
    expect(out.statusCode).toBe(200);
    const replay = await refresh(u.refreshToken);
    expect(replay.statusCode).toBe(401);
    expect(authCookies(replay).refresh).toBe('');
  });
});
