import type { ShippingRates, ShippingSettings, ShippingSettingsBody, ShippingSettingsResponse } from '@shop/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const shippingSettingsKey = ['shipping', 'settings'] as const;
export const shippingRatesKey = ['shipping', 'rates'] as const;

/** GET shipping/settings (admin): flat rate, free over, country rates, how separately shipped items are charged. */
export const getShippingSettings = () => api.get<ShippingSettingsResponse>('shipping/settings').then((r) => r.settings);

export function useShippingSettings() {
  return useQuery({ queryKey: shippingSettingsKey, queryFn: getShippingSettings });
}

/** GET shipping/rates (public): the promise in the words the Shipping page and the FAQ use. */
export function useShippingRates() {
  return useQuery({ queryKey: shippingRatesKey, queryFn: () => api.get<ShippingRates>('shipping/rates') });
}

/** PUT shipping/settings (admin); a 400 carries the message (and the field). */
export const saveShippingSettings = (body: ShippingSettingsBody) =>
  api.put<{ message: string; settings: ShippingSettings }>('shipping/settings', body);

export function useSaveShippingSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveShippingSettings,
    onSuccess: (res) => {
      queryClient.setQueryData(shippingSettingsKey, res.settings);
      // What shoppers read follows: the rates, the information pages and the checkout quote.
      void queryClient.invalidateQueries({ queryKey: shippingRatesKey });
      void queryClient.invalidateQueries({ queryKey: ['pages'] });
      void queryClient.invalidateQueries({ queryKey: ['shipping-quote'] });
    },
  });
}
