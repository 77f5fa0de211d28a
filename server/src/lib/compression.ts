/**
 * Route compression options (@fastify/compress) for answers that are small JSON: a cart, one
 * order. Below 4 KB the body is sent as it is, in one write with a Content-Length. Gzipping one or
 * two kilobytes saves a packet at most, and costs a zlib stream per response plus a chunked reply
 * written in several pieces: on checkout under load that was about a tenth of the server's CPU
 * (issue 12). Larger answers (a full cart) are still compressed.
 */
export const SMALL_JSON_COMPRESSION = { threshold: 4096 };
