import type { Order, PlaceOrderBody } from '@shop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST orders: the server builds the order from the server cart and prices it. */
export function placeOrder(body: PlaceOrderBody): Promise<Order> {
  return api.post<Order>('orders', body);
}

export function usePlaceOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: placeOrder,
    // Order lists and the reserved stock shown in the cart change with a new order.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['orders'] }),
  });
}
