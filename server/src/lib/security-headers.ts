import { createRequire } from 'node:module';
import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';

type HelmetMiddleware = (req: IncomingMessage, res: ServerResponse, next: (err?: Error) => void) => void;
type Helmet = (options: FastifyHelmetOptions) => HelmetMiddleware;

/**
 * The helmet that @fastify/helmet itself wraps (its own dependency, resolved from it), so the
 * headers are exactly the ones the plugin would set.
 */
function helmetOfPlugin(): Helmet {
  const fromPlugin = createRequire(createRequire(import.meta.url).resolve('@fastify/helmet'));
  const mod = fromPlugin('helmet') as Helmet | { default: Helmet };
  return typeof mod === 'function' ? mod : mod.default;
}

/**
 * Security headers (helmet) on every response. @fastify/helmet builds its middleware — parsing
 * every CSP directive — again on each request (about 50 µs, a few per cent of a catalogue read);
 * the options never change, so the middleware is built once here and applied in one onRequest
 * hook. The plugin stays registered with `global: false` for its `reply.helmet()` decorator and
 * route-level `helmet` options: a route that sets them is left to the plugin.
 */
export async function registerSecurityHeaders(app: FastifyInstance, options: FastifyHelmetOptions) {
  await app.register(fastifyHelmet, { ...options, global: false } as FastifyHelmetOptions);
  const apply = helmetOfPlugin()(options);
  app.addHook('onRequest', (request, reply, done) => {
    if ((request.routeOptions.config as { helmet?: unknown }).helmet !== undefined) return done();
    apply(request.raw, reply.raw, done);
  });
}
