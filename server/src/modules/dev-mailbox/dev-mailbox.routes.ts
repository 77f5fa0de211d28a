import { devMailboxQuerySchema, devMailboxResponseSchema } from '@shop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listDevMailbox } from './list-mailbox.ts';

/**
 * GET /api/dev/mailbox: the development mailbox (issue 23). Only outside production and without
 * SMTP_URL (config.devMailbox) is the route registered at all: in production it is a 404 like any
 * unknown route. The bodies are sealed at rest; they are opened here, in the server.
 */
export const devMailboxRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  if (!ctx.config.devMailbox) return;
  app.get('/dev/mailbox', {
    config: { access: 'public', private: true }, // everyone's mail: never kept by a cache
    schema: { querystring: devMailboxQuerySchema, response: { 200: devMailboxResponseSchema } },
  }, async (request) => ({
    messages: await listDevMailbox({ db: ctx.db, sealer: ctx.mailSealer }, request.query.limit),
  }));
};
