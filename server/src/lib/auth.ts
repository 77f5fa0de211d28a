import { and, eq, isNull, ne, sql } from 'drizzle-orm';
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
  // Every signed-in request runs this: hand-written (no query building), prepared on the connection.
  const { rows } = (await db.execute(sql`
    select u.id, u.name, u.email, u.is_admin from ${sessions} s inner join ${users} u on u.id = s.user_id
    where s.id = ${sessionId} and s.user_id = ${userId} and s.revoked_at is null and s.expires_at > ${new Date().toISOString()}::timestamptz
    limit 1`)) as unknown as { rows: Array<{ id: string; name: string; email: string; is_admin: boolean }> };
  const row = rows[0];
  return row ? { id: row.id, name: row.name, email: row.email, isAdmin: row.is_admin, sessionId } : null;
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

export async function resolveUser(request: FastifyRequest, opts: Pick<AuthOptions, 'signer' | 'db'>): Promise<AuthUser | null> {
  const token = request.cookies[ACCESS_COOKIE];
  if (!token) return null;
  const claims = await opts.signer.verify(token);
  if (!claims) return null;
  return findSessionUser(opts.db, claims.sid, claims.sub);
}

/**
 * Ends one session: its access tokens stop working at once and its refresh tokens are refused.
 * Returns the session's user when this call ended it (null when it had already ended).
 */
export async function revokeSession(db: Executor, sessionId: string): Promise<string | null> {
  const [row] = await db.update(sessions).set({ revokedAt: new Date() })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
    .returning({ userId: sessions.userId });
  return row?.userId ?? null;
}

/** Ends every session of a user, except `keepSessionId` when given (the device making the change). */
export async function revokeUserSessions(db: Executor, userId: string, keepSessionId?: string): Promise<void> {
  const conditions = [eq(sessions.userId, userId), isNull(sessions.revokedAt)];
  if (keepSessionId) conditions.push(ne(sessions.id, keepSessionId));
  await db.update(sessions).set({ revokedAt: new Date() }).where(and(...conditions));
}

export interface RegisteredRoute {
  method: string;
  url: string;
  access: Access;
  /** The route's schema (zod params/querystring/body, response, docs); the fuzz test generates input from it. */
  schema?: { params?: unknown; querystring?: unknown; body?: unknown; consumes?: readonly string[]; hide?: boolean };
  /** A websocket route (@fastify/websocket): not callable with a plain HTTP request. */
  isWebsocket?: boolean;
}

// Every route the auth plugin saw registered, per app instance, for the route-access test.
const routeRegistry = new WeakMap<object, RegisteredRoute[]>();

/** The routes registered after the auth plugin, with their declared access. */
export function listRegisteredRoutes(app: FastifyInstance): RegisteredRoute[] {
  return [...(routeRegistry.get(app) ?? [])];
}

/**
 * Enforces each route's declared access. Every route must declare one: registering a route without
 * `config.access` throws (files served by @fastify/static are public), and a test enumerates the
 * routes to prove it. The check runs in onRequest, before the body is parsed or validated, so an
 * anonymous caller gets 401 rather than a validation error.
 */
export const authPlugin = fp<AuthOptions>(async (app: FastifyInstance, opts) => {
  const registry: RegisteredRoute[] = [];
  routeRegistry.set(app, registry);
  app.decorateRequest('user', null);
  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as { access?: Access; file?: unknown };
    if (!config.access && config.file !== undefined) {
      route.config = { ...route.config, access: 'public' };
    }
    const access = route.config?.access;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!access || !ACCESS_LEVELS.includes(access)) {
      throw new Error(`Route ${methods.join(',')} ${route.url} must declare config.access ('public' | 'user' | 'admin')`);
    }
    const schema = route.schema as RegisteredRoute['schema'];
    const isWebsocket = (route as { websocket?: boolean }).websocket === true;
    for (const method of methods) registry.push({ method, url: route.url, access, ...(schema ? { schema } : {}), ...(isWebsocket ? { isWebsocket } : {}) });
  });
  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    // A route registered before this plugin has no checked rule: refused, except the not-found handler.
    const access: Access = config.access ?? (request.is404 ? 'public' : 'admin');
    if (access === 'public' && !config.optionalUser) return;
    request.user = await resolveUser(request, opts);
    if (access === 'public') return;
    if (!request.user) throw unauthorized();
    if (access === 'admin' && !request.user.isAdmin) throw forbidden();
  });
});

const ACCESS_LEVELS: readonly Access[] = ['public', 'user', 'admin'];

export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
