import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../lib/auth.ts';
import { SMALL_JSON_COMPRESSION as compress } from '../../lib/compression.ts';
import { cancelOrder } from './cancel-order.ts';
import { createPayPalOrderFor } from './create-paypal-order.ts';
import { payOrder } from './pay-order.ts';
import { paymentMode, presentPaymentConfig } from './payment-mode.ts';
import * as s from './payments.schemas.ts';
import type { PaymentDeps } from './record-payment.ts';
import { createPayPalClient } from './paypal-client.ts';
import { refundOrder } from './refund-order.ts';
import { registerRefundSettlement } from './settle-refunds.ts';
import { createSettlePayPalOrder } from './settle-paypal-order.ts';

/** Payment configuration, PayPal order creation, paying an order (PayPal or demo), refunds and cancellation. */
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

  app.put('/orders/:id/pay', { config: { access: 'user', idempotent: true }, schema: s.payOrderSchema, compress }, async (request) =>
    payOrder(deps, requireUser(request), request.params.id, request.body));

  app.post('/orders/:id/refunds', { config: { access: 'admin', idempotent: true }, schema: s.refundOrderSchema }, async (request, reply) =>
    reply.status(201).send(await refundOrder(deps, requireUser(request), request.params.id, { kind: 'refund', body: request.body })));

  app.post('/orders/:id/cancel', { config: { access: 'user', idempotent: true }, schema: s.cancelOrderSchema }, async (request) =>
    cancelOrder({ ...deps, cancelSupplierOrder: app.ctx.cancelSupplierOrder, checkPayPalOrder: app.ctx.checkPayPalOrder }, requireUser(request), request.params.id, request.body));

  // Refunds whose PayPal answer (or our write of it) was lost are settled by this sweep.
  registerRefundSettlement(app.ctx.jobs, deps, REFUND_SETTLE_EVERY_MS);
};

/** How often the refund sweep looks for refunds left pending. */
export const REFUND_SETTLE_EVERY_MS = 60_000;
