import { PRODUCT_ID_REQUIRED_MESSAGE } from '@shop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../lib/auth.ts';
import { SMALL_JSON_COMPRESSION as compress } from '../../lib/compression.ts';
import { badRequest } from '../../lib/errors.ts';
import { cartLeadJobSql } from '../leads/index.ts';
import * as s from './cart.schemas.ts';
import { applyCartDiscount, removeCartDiscount } from '../discounts/index.ts';
import { clearCart, discountLineOf, findCartLines, getCart, isLineAvailable, removeCartItem } from './get-cart.ts';
import { mergeCart } from './merge-cart.ts';
import { setCartItem, type WrittenLine } from './set-cart-item.ts';

const user = { access: 'user' } as const;

function requireProductId(productId: string): string {
  const id = productId.trim();
  if (!id) throw badRequest(PRODUCT_ID_REQUIRED_MESSAGE);
  return id;
}

/** The signed-in user's cart; every answer is the whole cart with live prices and stock. */
export const cartRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;

  app.get('/cart', { config: user, schema: s.getCartSchema, compress }, async (request) =>
    getCart(db, requireUser(request).id));

  app.post('/cart/items', { config: user, schema: s.addCartItemSchema, compress }, async (request) => {
    const shopper = requireUser(request);
    // Carting is the strongest buying signal short of an order: the shopper's lead (made on first
    // contact) gets the product among its products of interest and a high interest level. That
    // update is a job written by the statement that writes the line (no extra round trip), so it
    // happens exactly when the line was written, whatever becomes of the database meanwhile.
    return setCartItem(db, {
      userId: shopper.id, ...request.body, mode: 'add',
      ...(shopper.isAdmin ? {} : { withAdded: (line: WrittenLine) => cartLeadJobSql(shopper, line.at, line) }),
    });
  });

  app.put('/cart/items/:productId', { config: user, schema: s.updateCartItemSchema, compress }, async (request) =>
    setCartItem(db, {
      userId: requireUser(request).id,
      productId: requireProductId(request.params.productId),
      quantity: request.body.quantity,
      variantId: request.body.variantId,
      mode: 'update',
    }));

  app.delete('/cart/items/:productId', { config: user, schema: s.removeCartItemSchema, compress }, async (request) =>
    removeCartItem(db, requireUser(request).id, requireProductId(request.params.productId), request.query.variantId?.trim() || null));

  // A call without a product id (e.g. DELETE cart/items/) gets the spec's message, not a route 404.
  for (const method of ['PUT', 'DELETE'] as const) {
    app.route({
      method,
      url: '/cart/items',
      config: user,
      schema: s.missingProductIdSchema,
      handler: async () => { throw badRequest(PRODUCT_ID_REQUIRED_MESSAGE); },
    });
  }

  app.delete('/cart', { config: user, schema: s.clearCartSchema, compress }, async (request) => {
    const userId = requireUser(request).id;
    await clearCart(db, userId);
    return getCart(db, userId);
  });

  // A discount code on the cart (issue 34.1): kept only when it applies to the cart as it is (400
  // with the reason otherwise); every cart answer judges it again. Checkout checks it once more.
  app.post('/cart/discount', { config: user, schema: s.applyCartDiscountSchema, compress }, async (request) => {
    const userId = requireUser(request).id;
    const lines = (await findCartLines(db, userId)).filter(isLineAvailable).map((l) => discountLineOf(l));
    await applyCartDiscount(db, userId, request.body.code, lines);
    return getCart(db, userId);
  });

  app.delete('/cart/discount', { config: user, schema: s.removeCartDiscountSchema, compress }, async (request) => {
    const userId = requireUser(request).id;
    await removeCartDiscount(db, userId);
    return getCart(db, userId);
  });

  app.post('/cart/merge', { config: user, schema: s.mergeCartSchema, compress }, async (request) =>
    mergeCart(db, requireUser(request).id, request.body));
};
