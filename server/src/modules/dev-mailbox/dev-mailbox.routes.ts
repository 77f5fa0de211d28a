import { DEV_MAILBOX_PATH, devMailboxQuerySchema, devMailboxResponseSchema } from '@shop/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isFromThisMachine } from '../../lib/local-only.ts';
import { listDevMailbox } from './list-mailbox.ts';

/**
 * GET /api/dev/mailbox: the development mailbox (issue 23). Only outside production and without
 * SMTP_URL (config.devMailbox) is the route registered at all: in production it is a 404 like any
 * unknown route. Even there it answers this machine only (lib/local-only.ts: the connection's own
 * address, never a header): anyone else gets exactly the unknown route's 404, since the mail holds
 * every account's sign-up and password-reset links. The bodies are sealed at rest; they are opened
 * here, in the server.
 */
export const devMailboxRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  if (!ctx.config.devMailbox) return;
  app.get('/dev/mailbox', {
    config: { access: 'public', private: true }, // everyone's mail: never kept by a cache
    schema: { querystring: devMailboxQuerySchema, response: { 200: devMailboxResponseSchema } },
  }, async (request, reply) => {
    if (!isFromThisMachine(request)) {
      reply.callNotFound();
      return reply;
    }
    return { messages: await listDevMailbox({ db: ctx.db, sealer: ctx.mailSealer }, request.query.limit) };
  });
};

/** Whether the request is for the mailbox's page (any spelling the web app's router accepts: case, trailing slash, encoding). */
function isMailboxPage(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const raw = request.url.split('?')[0] ?? '';
  let pathname: string;
  try {
    pathname = decodeURIComponent(raw);
  } catch {
    return false;
  }
  return pathname.replace(/\/+$/, '').toLowerCase() === DEV_MAILBOX_PATH;
}

/**
 * The mailbox's page (/dev/mailbox) answers 404 to anyone but this machine, as in production: the
 * page holds no mail itself (the browser reads it from the API, refused above), but it is not
 * anyone else's page either. Set on the answer, after the page was rendered (its server rendering
 * reads the API in-process, so it cannot tell who asked).
 */
export function refuseMailboxPageToOtherMachines(app: FastifyInstance): void {
  if (!app.ctx.config.devMailbox) return;
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode === 200 && isMailboxPage(request) && !isFromThisMachine(request)) void reply.code(404);
    return payload;
  });
}
