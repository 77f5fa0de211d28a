import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { acceptsGzip, SMALL_JSON_COMPRESSION } from '../../lib/compression.ts';
import type { CatalogueCache } from './catalogue-cache.ts';

/** How long a storefront read is served from memory (this instance's writes clear it at once). */
export const RESPONSE_TTL_MS = 5_000;

/** `Cache-Control: no-cache` (a hard reload, or a client that wants the database's answer) skips it. */
export function wantsFresh(request: FastifyRequest): boolean {
  const cc = request.headers['cache-control'];
  return typeof cc === 'string' && /\bno-cache\b|\bno-store\b/i.test(cc);
}

/**
 * Route options of the micro-cached reads: @fastify/compress leaves them alone, sendCached
 * compresses them itself (see there).
 */
export const CACHED_READ_ROUTE = { compress: false } as const;

/** Gzip level of catalogue answers: about the size of level 6 on a 6 KB page, for less CPU. */
const GZIP_LEVEL = 4;

interface Body { json: Buffer; gzip?: Buffer }

function send(request: FastifyRequest, reply: FastifyReply, body: Body): FastifyReply {
  void reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
  if (body.json.length < SMALL_JSON_COMPRESSION.threshold || !acceptsGzip(request)) return reply.send(body.json);
  body.gzip ??= gzipSync(body.json, { level: GZIP_LEVEL });
  return reply.header('content-encoding', 'gzip').send(body.gzip);
}

/**
 * Micro-caching of hot public catalogue reads (search pages, product pages, the home grid): the
 * serialized JSON is kept for a few seconds per distinct request, so a burst of shoppers asking the
 * same thing costs one query. The body is checked against the response schema when it is built
 * (as the route's serializer would), so nothing leaves the server that the schema would not let out.
 * Stock shown in listings may lag by up to the TTL; the cart and orders always read the database.
 *
 * Answers of 4 KB and more (a search page is about 6 KB) are gzipped here, in one synchronous call
 * (kept with the cached body, so once per entry), when the client accepts gzip; smaller ones go as
 * they are, as on the checkout routes (lib/compression.ts). @fastify/compress would pipe each one
 * through a zlib stream and a chunked reply: about 0.9 ms of CPU per 6 KB search page, more than
 * the rest of the request.
 */
export async function sendCached<S extends z.ZodType>(
  request: FastifyRequest,
  reply: FastifyReply,
  cache: CatalogueCache,
  key: string,
  schema: S,
  load: () => Promise<z.input<S>>,
): Promise<FastifyReply> {
  const build = async (): Promise<Body> => ({ json: Buffer.from(JSON.stringify(schema.parse(await load()))) });
  if (wantsFresh(request)) return send(request, reply, await build());
  return send(request, reply, await cache.remember(`response\u0000${key}`, RESPONSE_TTL_MS, build));
}
