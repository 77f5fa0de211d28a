import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Access } from './auth.ts';

/** The Cache-Control of an answer meant for one caller alone: no cache keeps it, the browser's included. */
export const PRIVATE_NO_STORE = 'private, no-store';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * On a public route: every answer is the caller's own (their profile after sign-in, a guest
     * chat keyed by its cookie, the development mailbox, an operations endpoint behind a token), so
     * it is marked `Cache-Control: private, no-store` like the answers of 'user' and 'admin' routes.
     */
    private?: boolean;
  }
}

/** Adds `token` to a Vary header value unless it is there already (case-insensitive). */
export function withVary(current: unknown, token: string): string {
  const list = (Array.isArray(current) ? current.join(',') : typeof current === 'string' ? current : '')
    .split(',').map((v) => v.trim()).filter(Boolean);
  if (list.some((v) => v === '*' || v.toLowerCase() === token.toLowerCase())) return list.join(', ');
  return [...list, token].join(', ');
}

/**
 * Whether the answer to this request is for the caller alone, decided from the route's declared
 * access: every answer of a 'user' or 'admin' route (refusals included: a 401, 403 or 404 says
 * something about who asked), of a public route marked `private`, of a public route that resolved a
 * signed-in user (`optionalUser`: users/current, a product an administrator may see as a draft,
 * the chat), and any answer that sets a cookie.
 */
export function isPrivateAnswer(request: FastifyRequest, reply: FastifyReply): boolean {
  const config = request.routeOptions.config as { access?: Access; private?: boolean } | undefined;
  // As the auth plugin decides: a route without an access rule is an administrator's.
  const access: Access = config?.access ?? (request.is404 ? 'public' : 'admin');
  return access !== 'public' || config?.private === true || request.user !== null || reply.hasHeader('set-cookie');
}

/**
 * The one place that marks personal answers (issue 32): `Cache-Control: private, no-store` on every
 * answer for one caller (see isPrivateAnswer), `Vary: Cookie` on the anonymous answers of public
 * routes whose answer depends on the session (`optionalUser`). Every other answer keeps the headers
 * its route set (the catalogue's, the images' and the static files' public caching). Registered after
 * @fastify/cookie, so the cookies a route set are already in the headers here. Server-rendered pages
 * are not routes: spa.ts marks them.
 */
export function registerPrivateAnswers(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (isPrivateAnswer(request, reply)) void reply.header('cache-control', PRIVATE_NO_STORE);
    else if (request.routeOptions.config?.optionalUser) void reply.header('vary', withVary(reply.getHeader('vary'), 'Cookie'));
    done(null, payload);
  });
}
