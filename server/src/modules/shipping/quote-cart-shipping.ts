import type { ShippingQuote } from '@shop/contracts';
import type { Executor } from '../../db/client.ts';
import { findCartLines, isLineAvailable } from '../cart/get-cart.ts';
import { presentCartItem } from '../cart/cart.presenter.ts';
import type { FreightQuoter } from '../supplier/freight.ts';
import { shippingPriceOf, shippingTerms } from './shipping-price.ts';
import { getShippingSettings } from './shipping-settings.ts';

/**
 * What Place Order will charge for shipping the signed-in user's cart to a country (POST
 * orders/shipping-quote): the shipping settings' rule on the cart as the server prices it now, with
 * the supplier's freight for supplier lines when the settings charge it (the same cached quote
 * place-order uses). The answer names no carrier: shoppers read STANDARD_SHIPPING_LABEL.
 */
export async function quoteCartShipping(db: Executor, freight: FreightQuoter | undefined, userId: string, country: string): Promise<ShippingQuote> {
  const [settings, lines] = await Promise.all([getShippingSettings(db), findCartLines(db, userId)]);
  const sold = lines.filter((l) => isLineAvailable(l) && l.product);
  const itemsCents = sold.reduce((sum, l) => sum + Math.round(presentCartItem(l.product!, l.quantity, l.variant).price * 100) * l.quantity, 0);
  const hasSupplierLines = sold.some((l) => l.product!.cjData != null && l.variant);
  let freightPrice: number | null = null;
  let message: string | null = null;
  if (settings.supplierFreight === 'charge' && hasSupplierLines && freight) {
    const q = await freight.quote(db, userId, country);
    freightPrice = q.source === 'supplier' ? q.shippingPrice : null;
    message = q.message;
  }
  const terms = shippingTerms(settings, { country, hasOwnLines: sold.some((l) => l.product!.cjData == null), hasSupplierLines, freight: freightPrice });
  const shippingPrice = shippingPriceOf(terms, itemsCents / 100);
  return { shippingPrice, label: shippingPrice > 0 ? terms.label : null, freeOver: settings.freeOver, message };
}
