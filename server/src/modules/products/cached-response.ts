import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { CatalogueCache } from './catalogue-cache.ts';

/** How long a storefront read is served from memory (this instance's writes clear it at once). */
export const RESPONSE_TTL_MS = 5_000;

/** `Cache-Control: no-cache` (a hard reload, or a client that wants the database's answer) skips it. */
export function wantsFresh(request: FastifyRequest): boolean {
  const cc = request.headers['cache-control'];
  return typeof cc === 'string' && /\bno-cache\b|\bno-store\b/i.test(cc);
}

/**
 * Micro-caching of hot public catalogue reads (search pages, product pages, the home grid): the
 * serialized JSON is kept for a few seconds per distinct request, so a burst of shoppers asking the
 * same thing costs one query. The body is checked against the response schema once, when it is
 * built, so nothing leaves the server that the schema would not let out. Stock shown in listings
 * may lag by up to the TTL; the cart and orders always read the database.
 */
export async function sendCached<S extends z.ZodType>(
  request: FastifyRequest,
  reply: FastifyReply,
  cache: CatalogueCache,
  key: string,
  schema: S,
  load: () => Promise<z.input<S>>,
): Promise<FastifyReply> {
  if (wantsFresh(request)) return reply.send(await load());
  const body = await cache.remember(`response\u0000${key}`, RESPONSE_TTL_MS, async () =>
    Buffer.from(JSON.stringify(schema.parse(await load()))));
  return reply.type('application/json; charset=utf-8').send(body);
}
