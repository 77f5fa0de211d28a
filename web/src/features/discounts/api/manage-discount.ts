import type { DiscountBodyInput, DiscountMessageResponse, MessageResponse } from '@shop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { discountsKey } from './get-discounts';

/** POST discounts (admin). */
export const createDiscount = (body: DiscountBodyInput) => api.post<DiscountMessageResponse>('discounts', body);

/** PUT discounts/{id} (admin): the whole discount (enable/disable sends it back with `enabled` changed). */
export const updateDiscount = ({ id, body }: { id: string; body: DiscountBodyInput }) => api.put<DiscountMessageResponse>(`discounts/${id}`, body);

/** DELETE discounts/{id} (admin). */
export const deleteDiscount = (id: string) => api.delete<MessageResponse>(`discounts/${id}`);

function useInvalidatingMutation<A, R>(fn: (a: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => queryClient.invalidateQueries({ queryKey: discountsKey }) });
}

export const useCreateDiscount = () => useInvalidatingMutation(createDiscount);
export const useUpdateDiscount = () => useInvalidatingMutation(updateDiscount);
export const useDeleteDiscount = () => useInvalidatingMutation(deleteDiscount);
