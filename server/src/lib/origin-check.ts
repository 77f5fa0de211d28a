import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from './errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const ORIGIN_NOT_ALLOWED = 'Request origin not allowed';

/**
 * CSRF defence for cookie-authenticated writes, on top of SameSite cookies: a browser always sends
 * Origin on cross-site (and same-origin fetch) writes, so a write whose Origin is not ours is refused.
 * "Ours" is one origin, compared by scheme, host and port: PUBLIC_URL when it is set, otherwise the
 * origin the request was addressed to (its scheme, from X-Forwarded-Proto only with TRUST_PROXY, and
 * its Host). So https://shop is refused when the shop is served on http://shop, and the other way
 * round. Non-browser clients send no Origin and carry no ambient cookies from another site.
 */
export function registerOriginCheck(app: FastifyInstance, publicUrl: string | undefined) {
  const publicOrigin = publicUrl ? new URL(publicUrl).origin : undefined;
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin ?? refererOrigin(request.headers.referer);
    if (origin === undefined) return;
    if (!isAllowedOrigin(origin, publicOrigin ?? requestOrigin(request))) throw forbidden(ORIGIN_NOT_ALLOWED);
  });
}

/** The origin (scheme://host[:port], default port dropped) the request was addressed to, or null. */
export function requestOrigin(request: FastifyRequest): string | null {
  const host = request.host;
  if (!host) return null;
  try {
    return new URL(`${request.protocol}://${host}`).origin;
  } catch {
    return null;
  }
}

function isAllowedOrigin(origin: string, expected: string | null): boolean {
  if (!expected) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // 'null' (sandboxed frames, privacy redirects) and garbage
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  // URL.origin normalises case and drops the scheme's default port on both sides.
  return url.origin === expected;
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'null';
  }
}
