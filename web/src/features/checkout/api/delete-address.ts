import type { MessageResponse } from '@shop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { addressesQueryKey } from './get-addresses';

/** DELETE addresses/{id}. */
export function deleteAddress(id: string): Promise<MessageResponse> {
  return api.delete<MessageResponse>(`addresses/${id}`);
}

export function useDeleteAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAddress,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: addressesQueryKey }),
  });
}
