import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../lib/auth.ts';
import { SMALL_JSON_COMPRESSION as compress } from '../../lib/compression.ts';
import { createPayPalOrderFor } from './create-paypal-order.ts';
import { payOrder } from './pay-order.ts';
import { paymentMode, presentPaymentConfig } from './payment-mode.ts';
import * as s from './payments.schemas.ts';
import type { PaymentDeps } from './record-payment.ts';
import { createPayPalClient } from './paypal-client.ts';
import { createSettlePayPalOrder } from './settle-paypal-order.ts';

/** Payment configuration, PayPal order creation and paying an order (PayPal or demo). */
export const paymentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, mailer } = app.ctx;
  const paypal = paymentMode(config) === 'paypal'
    ? createPayPalClient({ clientId: config.paypal.clientId!, clientSecret: config.paypal.clientSecret!, apiBase: config.paypal.apiBase })
    : null;
  const deps: PaymentDeps = { db, config, mailer, log: app.log, paypal };
  // The expiry sweep (orders module) asks PayPal through us before expiring an order with a PayPal order.
  app.ctx.checkPayPalOrder = createSettlePayPalOrder(deps);

  app.get('/keys/paypal', { config: { access: 'public' }, schema: s.paymentConfigRouteSchema }, async () =>
    presentPaymentConfig(config));

  app.post('/orders/:id/paypal/create', { config: { access: 'user' }, schema: s.createPayPalOrderSchema }, async (request) =>
    createPayPalOrderFor(deps, requireUser(request), request.params.id));

  app.put('/orders/:id/pay', { config: { access: 'user' }, schema: s.payOrderSchema, compress }, async (request) =>
    payOrder(deps, requireUser(request), request.params.id, request.body));
};
