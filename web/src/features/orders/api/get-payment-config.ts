import type { PaymentConfig } from '@shop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET keys/paypal: the PayPal client id and whether payments run in PayPal or demo mode. Loaded on demand. */
export function getPaymentConfig(): Promise<PaymentConfig> {
  return api.get<PaymentConfig>('keys/paypal');
}

export const paymentConfigQueryOptions = () =>
  queryOptions({ queryKey: ['keys', 'paypal'], queryFn: getPaymentConfig, staleTime: Infinity });

export function usePaymentConfig() {
  return useQuery(paymentConfigQueryOptions());
}
