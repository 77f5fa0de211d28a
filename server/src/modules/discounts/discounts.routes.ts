import { DISCOUNT_MESSAGES } from '@shop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as s from './discounts.schemas.ts';
import { getDiscount, listDiscounts } from './list-discounts.ts';
import { createDiscount, deleteDiscount, updateDiscount } from './save-discount.ts';

const admin = { access: 'admin' } as const;

/** Discount codes in the back office (the cart and checkout use them through index.ts). */
export const discountsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;

  app.get('/discounts', { config: admin, schema: s.listDiscountsSchema }, async (request) => listDiscounts(db, request.query));

  app.post('/discounts', { config: admin, schema: s.createDiscountSchema }, async (request, reply) => {
    const discount = await createDiscount(db, request.body);
    return reply.code(201).send({ message: DISCOUNT_MESSAGES.created, discount });
  });

  app.get('/discounts/:id', { config: admin, schema: s.getDiscountSchema }, async (request) => getDiscount(db, request.params.id));

  app.put('/discounts/:id', { config: admin, schema: s.updateDiscountSchema }, async (request) =>
    ({ message: DISCOUNT_MESSAGES.updated, discount: await updateDiscount(db, request.params.id, request.body) }));

  app.delete('/discounts/:id', { config: admin, schema: s.deleteDiscountSchema }, async (request) => {
    await deleteDiscount(db, request.params.id);
    return { message: DISCOUNT_MESSAGES.deleted };
  });
};
