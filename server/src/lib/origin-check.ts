import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from './errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const ORIGIN_NOT_ALLOWED = 'Request origin not allowed';

/**
 * CSRF defence for cookie-authenticated writes, on top of SameSite cookies: a browser always sends
 * Origin on cross-site (and same-origin fetch) writes, so a write whose Origin is not ours is refused.
 * "Ours" is PUBLIC_URL when set, and the host the request was addressed to. Non-browser clients send
 * no Origin and carry no ambient cookies from another site.
 */
export function registerOriginCheck(app: FastifyInstance, publicUrl: string | undefined) {
  const publicOrigin = publicUrl ? new URL(publicUrl).origin : undefined;
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin ?? refererOrigin(request.headers.referer);
    if (origin === undefined) return;
    if (!isAllowedOrigin(origin, request, publicOrigin)) throw forbidden(ORIGIN_NOT_ALLOWED);
  });
}

function isAllowedOrigin(origin: string, request: FastifyRequest, publicOrigin: string | undefined): boolean {
  if (publicOrigin && origin === publicOrigin) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // 'null' (sandboxed frames, privacy redirects) and garbage
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  // request.host honours X-Forwarded-Host only when TRUST_PROXY is set. Compare host names and
  // ports with the scheme's default port filled in, since browsers omit it in Origin and Host.
  const host = request.host;
  if (!host) return false;
  let requestHost: URL;
  try {
    requestHost = new URL(`${url.protocol}//${host}`);
  } catch {
    return false;
  }
  return requestHost.host === url.host;
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'null';
  }
}
