import type { PaypalCreateResponse } from '@shop/contracts';
import { api } from '../../../lib/api-client';

/** POST orders/{id}/paypal/create: the server creates the PayPal order for exactly this order's total. */
export function createPaypalOrder(orderId: string): Promise<PaypalCreateResponse> {
  return api.post<PaypalCreateResponse>(`orders/${encodeURIComponent(orderId)}/paypal/create`);
}
