import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STORAGE_FULL_CODE, STORAGE_FULL_RETRY_AFTER_SECONDS } from '../../lib/storage-full.ts';

const unavailableBody = z.object({ message: z.string(), code: z.string() });

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  let reportedFull: string | null = null;
  app.get('/health', {
    config: { access: 'public' },
    schema: { tags: ['health'], summary: 'The process is up (200 while it drains too: for monitors and supervisors)', response: { 200: z.object({ status: z.literal('ok') }) } },
  }, async () => ({ status: 'ok' as const }));

  // What the load balancer checks (deploy/haproxy.cfg). Not the database: every instance shares it,
  // so a database outage would fail every instance's check together and take the whole fleet out of
  // rotation, leaving shoppers the balancer's own error page. The instances stay in, and each request
  // that needs the database answers the shop's own 503 with Retry-After (lib/http-errors.ts).
  app.get('/live', {
    config: { access: 'public' },
    schema: {
      tags: ['health'],
      summary: 'Liveness for the load balancer: the instance answers and is not shutting down (the shared database is not checked)',
      response: { 200: z.object({ status: z.literal('live') }), 503: unavailableBody },
    },
  }, async (_request, reply) => {
    if (app.ctx.lifecycle.draining) return reply.status(503).send({ message: 'Shutting down', code: 'UNAVAILABLE' });
    return { status: 'live' as const };
  });

  app.get('/ready', {
    config: { access: 'public' },
    schema: {
      tags: ['health'],
      summary: 'Readiness: the database answers, storage is not full and the instance is not shutting down (for deploy scripts and monitors)',
      response: { 200: z.object({ status: z.literal('ready'), degraded: z.array(z.enum(['redis'])).optional() }), 503: unavailableBody },
    },
  }, async (_request, reply) => {
    // Checked first: a stopping instance is not ready whatever the database says.
    if (app.ctx.lifecycle.draining) return reply.status(503).send({ message: 'Shutting down', code: 'UNAVAILABLE' });
    try {
      await app.ctx.database.ping();
    } catch (err) {
      app.log.error({ err }, 'readiness check failed');
      return reply.status(503).header('retry-after', '5').send({ message: 'Database unavailable', code: 'UNAVAILABLE' });
    }
    // Storage full (DATA_DIR below its free-space floor, or the database server's disk full): orders,
    // uploads and sign-ins cannot be written. Ready says so, with what is full; the reason is in the log too.
    const full = await app.ctx.storageHealth.check();
    if ((full?.reason ?? null) !== reportedFull) {
      // Logged when it changes, not on every check of the balancer.
      if (full) app.log.warn({ storageFull: full.details }, `readiness: ${full.reason}`);
      else app.log.info('readiness: storage writable again');
      reportedFull = full?.reason ?? null;
    }
    if (full) {
      return reply.status(503).header('retry-after', String(STORAGE_FULL_RETRY_AFTER_SECONDS)).send({ message: full.reason, code: STORAGE_FULL_CODE });
    }
    // Redis down: the instance still serves everything (per-instance rate limits, local chat), so it
    // is ready and says what runs degraded.
    const { redisHealth } = app.ctx;
    if (redisHealth.configured && !redisHealth.isUp()) return { status: 'ready' as const, degraded: ['redis' as const] };
    return { status: 'ready' as const };
  });
};
