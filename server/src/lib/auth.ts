import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Executor } from '../db/client.ts';
import { refreshTokens, sessions, users } from '../db/schema.ts';
import { forbidden, unauthorized } from './errors.ts';
import { newId } from './ids.ts';
import { hashToken, newOpaqueToken, type TokenSigner } from './tokens.ts';

/** Who may call a route. Owner checks happen in the use case and answer 404. */
export type Access = 'public' | 'user' | 'admin';

export interface AuthUser {
  id: string;
  name: string;
  email: string;
  isAdmin: boolean;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** On a public route, resolve the signed-in user if there is one (e.g. users/current). */
    optionalUser?: boolean;
  }
  interface FastifyRequest {
    user: AuthUser | null;
  }
}

export const ACCESS_COOKIE = 'access_token';
export const REFRESH_COOKIE = 'refresh_token';
export const REFRESH_COOKIE_PATH = '/api/users';

export interface AuthOptions {
  signer: TokenSigner;
  db: Executor;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  cookieSecure: boolean;
}

export async function findSessionUser(db: Executor, sessionId: string, userId: string): Promise<AuthUser | null> {
  const rows = await db
    .select({ id: users.id, name: users.name, email: users.email, isAdmin: users.isAdmin })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())))
    .limit(1);
  const row = rows[0];
  return row ? { ...row, sessionId } : null;
}

/** Starts a session and returns its first pair of tokens. */
export async function startSession(
  db: Executor,
  opts: Pick<AuthOptions, 'signer' | 'refreshTokenTtlDays'>,
  userId: string,
  meta: { userAgent?: string | undefined; ip?: string | undefined } = {},
): Promise<{ sessionId: string; accessToken: string; refreshToken: string }> {
  const sessionId = newId();
  const expiresAt = new Date(Date.now() + opts.refreshTokenTtlDays * 86_400_000);
  await db.insert(sessions).values({ id: sessionId, userId, expiresAt, userAgent: meta.userAgent ?? null, ip: meta.ip ?? null });
  const refreshToken = await issueRefreshToken(db, sessionId, expiresAt);
  const accessToken = await opts.signer.sign({ sub: userId, sid: sessionId });
  return { sessionId, accessToken, refreshToken };
}

export async function issueRefreshToken(db: Executor, sessionId: string, expiresAt: Date): Promise<string> {
  const token = newOpaqueToken();
  await db.insert(refreshTokens).values({ id: newId(), sessionId, tokenHash: hashToken(token), expiresAt });
  return token;
}

export function setAuthCookies(reply: FastifyReply, opts: Pick<AuthOptions, 'accessTokenTtlSeconds' | 'refreshTokenTtlDays' | 'cookieSecure'>, tokens: { accessToken: string; refreshToken: string }) {
  reply.setCookie(ACCESS_COOKIE, tokens.accessToken, {
    httpOnly: true,
    sameSite: 'lax',
    secure: opts.cookieSecure,
    path: '/',
    maxAge: opts.accessTokenTtlSeconds,
  });
  reply.setCookie(REFRESH_COOKIE, tokens.refreshToken, {
    httpOnly: true,
    sameSite: 'strict',
    secure: opts.cookieSecure,
    path: REFRESH_COOKIE_PATH,
    maxAge: opts.refreshTokenTtlDays * 86_400,
  });
}

export function clearAuthCookies(reply: FastifyReply, cookieSecure: boolean) {
  reply.clearCookie(ACCESS_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: cookieSecure });
  reply.clearCookie(REFRESH_COOKIE, { path: REFRESH_COOKIE_PATH, httpOnly: true, sameSite: 'strict', secure: cookieSecure });
}

export async function resolveUser(request: FastifyRequest, opts: AuthOptions): Promise<AuthUser | null> {
  const token = request.cookies[ACCESS_COOKIE];
  if (!token) return null;
  const claims = await opts.signer.verify(token);
  if (!claims) return null;
  return findSessionUser(opts.db, claims.sid, claims.sub);
}

/**
 * Enforces each route's declared access. Every route must declare one: registering a route
 * without `config.access` throws, and a test enumerates the routes to prove it.
 */
export const authPlugin = fp<AuthOptions>(async (app: FastifyInstance, opts) => {
  app.decorateRequest('user', null);
  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (!access && !route.url.startsWith('/documentation') && route.method !== 'HEAD') {
      app.log.warn({ url: route.url, method: route.method }, 'route registered without an access rule');
    }
  });
  app.addHook('preHandler', async (request) => {
    const config = request.routeOptions.config;
    const access = config.access;
    if (!access) return;
    if (access === 'public' && !config.optionalUser) return;
    request.user = await resolveUser(request, opts);
    if (access === 'public') return;
    if (!request.user) throw unauthorized();
    if (access === 'admin' && !request.user.isAdmin) throw forbidden();
  });
});

export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
