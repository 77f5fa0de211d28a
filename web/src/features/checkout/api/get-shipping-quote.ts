import type { ShippingQuote, ShippingQuoteBody } from '@shop/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST orders/shipping-quote: what the server will charge for shipping this cart to a country. */
export function getShippingQuote(body: ShippingQuoteBody): Promise<ShippingQuote> {
  return api.post<ShippingQuote>('orders/shipping-quote', body);
}

/**
 * The shipping quote for the cart (the shop's shipping settings; the shipping depends on the
 * subtotal, the country and, for items that ship separately, their freight). Keyed by the country
 * and the lines with their prices, so a changed cart asks again.
 */
export function useShippingQuote(country: string | undefined, lines: Array<{ _id: string; variantId?: string | null; quantity: number; price: number }>) {
  const cartLines = lines.map((l) => `${l._id}:${l.variantId ?? ''}:${l.quantity}:${l.price}`).sort();
  return useQuery({
    queryKey: ['shipping-quote', country ?? '', cartLines],
    queryFn: () => getShippingQuote({ country: country ?? '' }),
    enabled: Boolean(country) && cartLines.length > 0,
    placeholderData: keepPreviousData,
    retry: false,
  });
}
