import type { ShippingRates } from '@shop/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET shipping/rates: the shop's shipping promise (the settings checkout charges from), for the cart summary. */
export const getShippingRates = () => api.get<ShippingRates>('shipping/rates');

export function useShippingRates(enabled = true) {
  return useQuery({ queryKey: ['shipping', 'rates'], queryFn: getShippingRates, enabled, staleTime: 60_000, retry: false });
}
