import { NEWSLETTER_BAD_TOKEN, NEWSLETTER_SUBSCRIBED, NEWSLETTER_UNSUBSCRIBED } from '@shop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { badRequest } from '../../lib/errors.ts';
import { enforceRateLimits } from '../../lib/rate-limit.ts';
import { hashToken } from '../../lib/tokens.ts';
import { subscribeSchema, unsubscribeSchema } from './newsletter.schemas.ts';
import { subscribeToNewsletter, unsubscribeFromNewsletter } from './subscribe.ts';

/** Newsletter: subscribe from the footer form, unsubscribe from the mailed link. */
export const newsletterRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const { config } = ctx;

  // Answers before the lookup and the mail, the same for a known and a new address.
  app.post('/newsletter/subscribe', { config: { access: 'public' }, schema: subscribeSchema }, async (request, reply) => {
    const { email } = request.body;
    await enforceRateLimits(ctx.rateLimiter, reply, [`newsletter:ip:${request.ip}`, `newsletter:email:${email}`], config.authRateLimit);
    // As sign-up: during a database outage the visitor gets the outage's 503 (the same for every
    // address), not a "check your e-mail" for work that could not be stored.
    await ctx.database.ping();
    ctx.background.run('newsletter-subscribe', async () => { await subscribeToNewsletter({ db: ctx.db, mailer: ctx.mailer }, email, config.siteUrl); });
    return reply.status(202).send({ message: NEWSLETTER_SUBSCRIBED });
  });

  app.post('/newsletter/unsubscribe', { config: { access: 'public' }, schema: unsubscribeSchema }, async (request, reply) => {
    await enforceRateLimits(ctx.rateLimiter, reply, [`newsletter-unsub:ip:${request.ip}`, `newsletter-unsub:token:${hashToken(request.body.token)}`], config.authRateLimit);
    if (!(await unsubscribeFromNewsletter(ctx.db, request.body.token))) throw badRequest(NEWSLETTER_BAD_TOKEN);
    return { message: NEWSLETTER_UNSUBSCRIBED };
  });
};
