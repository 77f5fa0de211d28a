import type { ShippingQuote, ShippingQuoteBody } from '@shop/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST orders/shipping-quote: what the server will charge for shipping this cart to a country. */
export function getShippingQuote(body: ShippingQuoteBody): Promise<ShippingQuote> {
  return api.post<ShippingQuote>('orders/shipping-quote', body);
}

/**
 * The shipping quote for the cart (asked only when it holds supplier lines: own products ship at the
 * shop's rule). Keyed by the country and the lines, so a changed cart asks again.
 */
export function useShippingQuote(country: string | undefined, lines: Array<{ _id: string; variantId?: string | null; quantity: number }>) {
  const supplierLines = lines.filter((l) => l.variantId).map((l) => `${l._id}:${l.variantId}:${l.quantity}`).sort();
  return useQuery({
    queryKey: ['shipping-quote', country ?? '', supplierLines],
    queryFn: () => getShippingQuote({ country: country ?? '' }),
    enabled: Boolean(country) && supplierLines.length > 0,
    placeholderData: keepPreviousData,
    retry: false,
  });
}
