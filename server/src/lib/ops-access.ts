import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Executor } from '../db/client.ts';
import { resolveUser } from './auth.ts';
import { forbidden, unauthorized } from './errors.ts';
import type { TokenSigner } from './tokens.ts';

/** Who may read an operations endpoint (/metrics, /api/docs): anyone, a token or admin session, or nobody (not served). */
export type OpsAccess = 'public' | 'protected' | 'off';

export const OPS_UNAUTHORIZED = 'Sign in as an administrator or send the metrics token (Authorization: Bearer ...)';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compares a presented bearer token with the configured one in constant time. */
export function isTokenValid(header: string | undefined, token: string | undefined): boolean {
  if (!token || !header) return false;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  if (!match?.[1]) return false;
  return timingSafeEqual(digest(match[1].trim()), digest(token));
}

/**
 * The onRequest check of a 'protected' operations endpoint: `Authorization: Bearer <METRICS_TOKEN>`
 * (a scraper) or the cookie session of an administrator (a person opening the API docs).
 */
export function createOpsGuard(deps: { token: string | undefined; signer: TokenSigner; db: Executor }) {
  return async function opsGuard(request: FastifyRequest): Promise<void> {
    if (isTokenValid(request.headers.authorization, deps.token)) return;
    const user = await resolveUser(request, deps);
    if (!user) throw unauthorized(OPS_UNAUTHORIZED);
    if (!user.isAdmin) throw forbidden();
  };
}
