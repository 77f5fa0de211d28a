import { ORDER_MESSAGES } from '@shop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../lib/auth.ts';
import { SMALL_JSON_COMPRESSION as compress } from '../../lib/compression.ts';
import { listMyOrders, presentOrderFor } from './find-orders.ts';
import { listAdminOrders } from './list-admin-orders.ts';
import { addOrderNote, deleteOrder, deliverOrder, undeliverOrder } from './manage-order.ts';
import * as s from './orders.schemas.ts';
import { placeOrderWithShipping } from './order-shipping.ts';
import { registerOrderExpiry } from './release-stock.ts';
import { reorder } from './reorder.ts';

const user = { access: 'user' } as const;
const admin = { access: 'admin' } as const;

/** Orders: placing (user), reading (owner or admin) and the back office (admin). */
export const ordersRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;

  const expiryMs = config.orderExpiryMinutes * 60_000;
  registerOrderExpiry(app.ctx.jobs, db, {
    everyMs: Math.max(1_000, Math.min(60_000, Math.floor(expiryMs / 4))),
    log: app.log,
    // Set by the payments module (it owns the PayPal client), read at each sweep.
    checkPayPalOrder: () => app.ctx.checkPayPalOrder,
  });

  app.post('/orders', { config: { ...user, idempotent: true }, schema: s.placeOrderSchema, compress }, async (request, reply) => {
    const { order, created } = await placeOrderWithShipping(db, app.ctx.freight, {
      userId: requireUser(request).id, body: request.body, expiryMinutes: config.orderExpiryMinutes,
    });
    return reply.status(created ? 201 : 200).send(order);
  });

  app.get('/orders/mine', { config: user, schema: s.listOrdersSchema }, async (request) =>
    listMyOrders(db, requireUser(request).id));

  app.get('/orders', { config: admin, schema: s.listAdminOrdersSchema }, async (request) => listAdminOrders(db, request.query));

  app.get('/orders/:id', { config: user, schema: s.getOrderSchema, compress }, async (request) =>
    presentOrderFor(db, requireUser(request), request.params.id));

  app.post('/orders/:id/reorder', { config: user, schema: s.reorderSchema }, async (request) =>
    reorder(db, requireUser(request), request.params.id));

  app.delete('/orders/:id', { config: admin, schema: s.deleteOrderSchema }, async (request) => {
    await deleteOrder(db, request.params.id);
    return { message: ORDER_MESSAGES.deleted };
  });

  app.put('/orders/:id/deliver', { config: admin, schema: s.orderActionSchema }, async (request) =>
    ({ message: ORDER_MESSAGES.delivered, order: await deliverOrder(db, requireUser(request), request.params.id) }));

  app.put('/orders/:id/undeliver', { config: admin, schema: s.orderActionSchema }, async (request) =>
    ({ message: ORDER_MESSAGES.undelivered, order: await undeliverOrder(db, requireUser(request), request.params.id) }));

  app.post('/orders/:id/notes', { config: admin, schema: s.addNoteSchema }, async (request, reply) =>
    reply.status(201).send(await addOrderNote(db, requireUser(request), request.params.id, request.body.text)));
};
