import type { FastifyRequest } from 'fastify';

/**
 * Route compression options (@fastify/compress) for answers that are small JSON: a cart, one
 * order. Below 4 KB the body is sent as it is, in one write with a Content-Length. Gzipping one or
 * two kilobytes saves a packet at most, and costs a zlib stream per response plus a chunked reply
 * written in several pieces: on checkout under load that was about a tenth of the server's CPU
 * (issue 12). Larger answers (a full cart) are still compressed.
 */
export const SMALL_JSON_COMPRESSION = { threshold: 4096 };

/** Whether the client takes gzip (listed in Accept-Encoding, not with q=0). */
export function acceptsGzip(request: FastifyRequest): boolean {
  const accept = request.headers['accept-encoding'];
  if (typeof accept !== 'string' || !accept.includes('gzip')) return false;
  return accept.split(',').some((part) => {
    const [name, ...params] = part.trim().split(';');
    if (name?.trim().toLowerCase() !== 'gzip') return false;
    const q = params.map((p) => p.trim().match(/^q=([\d.]+)$/i)?.[1]).find((v) => v !== undefined);
    return q === undefined || Number(q) > 0;
  });
}
