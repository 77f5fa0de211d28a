import type { FastifyInstance } from 'fastify';
import { forbidden } from './errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence for cookie-authenticated writes, on top of SameSite cookies: a browser always sends
 * Origin on cross-site (and same-origin fetch) writes, so a write whose Origin is not ours is refused.
 * Non-browser clients send no Origin and carry no ambient cookies from another site.
 */
export function registerOriginCheck(app: FastifyInstance, publicUrl: string | undefined) {
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin ?? refererOrigin(request.headers.referer);
    if (!origin) return;
    const allowed = new Set<string>();
    if (publicUrl) allowed.add(new URL(publicUrl).origin);
    const host = request.host; // honours X-Forwarded-Host only when TRUST_PROXY is set
    if (host) {
      allowed.add(`http://${host}`);
      allowed.add(`https://${host}`);
    }
    if (!allowed.has(origin)) throw forbidden('Request origin not allowed');
  });
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'null';
  }
}
