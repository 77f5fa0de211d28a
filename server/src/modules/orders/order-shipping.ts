import type { Order } from '@shop/contracts';
import type { Db } from '../../db/client.ts';
import { badRequest } from '../../lib/errors.ts';
import { freightKey, type FreightLine, type FreightQuote, type FreightQuoter } from '../supplier/freight.ts';
import { placeOrder, type PlaceOrderInput } from './place-order.ts';

/** CJ's freight, or null when CJ could not answer (the shop's rate applies to those items then). */
const freightOf = (q: FreightQuote): number | null => (q.source === 'supplier' ? q.shippingPrice : null);

/** Thrown inside the order's transaction when CJ has no cached quote: asked outside, then placed again. */
class FreightQuoteNeeded extends Error {
  constructor(readonly country: string, readonly lines: FreightLine[]) {
    super('freight quote needed');
  }
}

/**
 * Places an order charged the shipping the server works out (never the request's figures: the
 * shipping settings, shipping/shipping-price.ts). When the settings charge the freight of supplier
 * lines, that is CJ's freight quote for them to the order's country (the same cached answer the
 * checkout showed from POST orders/shipping-quote); when CJ cannot answer, the shop's rate. No
 * supplier call runs inside the order's transaction: on a cache miss the transaction stops before
 * writing anything, the quote is asked, and the order is placed again with it.
 */
export async function placeOrderWithShipping(
  db: Db, freight: FreightQuoter | undefined, input: Omit<PlaceOrderInput, 'shipping'>,
): Promise<{ order: Order; created: boolean }> {
  if (!freight) return placeOrder(db, input);
  try {
    return await placeOrder(db, {
      ...input,
      shipping: (lines, country) => {
        const hit = freight.cached(country, lines);
        if (!hit) throw new FreightQuoteNeeded(country, lines);
        return freightOf(hit);
      },
    });
  } catch (error) {
    if (!(error instanceof FreightQuoteNeeded)) throw error;
    const quoted = await freight.quoteLines(error.country, error.lines);
    const asked = freightKey(error.country, error.lines).key;
    return placeOrder(db, {
      ...input,
      shipping: (lines, country) => {
        const hit = freight.cached(country, lines);
        if (hit) return freightOf(hit);
        // CJ could not answer (the shop's rule, not cached): charge that answer if the cart is the one quoted.
        if (freightKey(country, lines).key !== asked) throw badRequest('Your cart changed while shipping was being quoted. Please try again.', undefined, 'CART_CHANGED');
        return freightOf(quoted);
      },
    });
  }
}
