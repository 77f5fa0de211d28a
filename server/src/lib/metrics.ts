import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { unhandledErrorCounts } from './process-faults.ts';

/** Prometheus metrics at /metrics: process defaults plus request duration by route and status. */
export function registerMetrics(app: FastifyInstance) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration in seconds',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  // Read when /metrics is scraped: Redis up (1) or down (0), or 1 when no Redis is configured.
  new Gauge({
    name: 'shop_redis_up',
    help: 'Whether the shared Redis is reachable (1) or not (0); 1 when no Redis is configured',
    registers: [registry],
    collect() {
      const health = app.ctx.redisHealth;
      this.set(!health.configured || health.isUp() ? 1 : 0);
    },
  });
  new Counter({
    name: 'shop_unhandled_errors_total',
    help: 'Unhandled promise rejections and uncaught exceptions logged (the process kept serving)',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [kind, n] of Object.entries(unhandledErrorCounts())) this.inc({ kind }, n);
    },
  });
  app.addHook('onResponse', async (request, reply) => {
    duration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  app.get('/metrics', { config: { access: 'public' }, schema: { hide: true } }, async (_req, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
}
