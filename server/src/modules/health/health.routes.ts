import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/health', {
    config: { access: 'public' },
    schema: { tags: ['health'], summary: 'Liveness', response: { 200: z.object({ status: z.literal('ok') }) } },
  }, async () => ({ status: 'ok' as const }));

  app.get('/ready', {
    config: { access: 'public' },
    schema: {
      tags: ['health'],
      summary: 'Readiness for the load balancer: the database answers and the instance is not shutting down',
      response: { 200: z.object({ status: z.literal('ready'), degraded: z.array(z.enum(['redis'])).optional() }), 503: z.object({ message: z.string(), code: z.string() }) },
    },
  }, async (_request, reply) => {
    // Checked first: a stopping instance must leave the balancer's rotation whatever the database says.
    if (app.ctx.lifecycle.draining) return reply.status(503).send({ message: 'Shutting down', code: 'UNAVAILABLE' });
    try {
      await app.ctx.database.ping();
    } catch (err) {
      app.log.error({ err }, 'readiness check failed');
      return reply.status(503).header('retry-after', '5').send({ message: 'Database unavailable', code: 'UNAVAILABLE' });
    }
    // Redis down: the instance still serves everything (per-instance rate limits, local chat), so it
    // stays in the balancer's rotation and says what runs degraded.
    const { redisHealth } = app.ctx;
    if (redisHealth.configured && !redisHealth.isUp()) return { status: 'ready' as const, degraded: ['redis' as const] };
    return { status: 'ready' as const };
  });
};
