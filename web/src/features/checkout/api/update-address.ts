import type { Address, AddressBody } from '@shop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { addressesQueryKey } from './get-addresses';

/** PUT addresses/{id}. */
export function updateAddress({ id, body }: { id: string; body: AddressBody }): Promise<Address> {
  return api.put<Address>(`addresses/${id}`, body);
}

export function useUpdateAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAddress,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: addressesQueryKey }),
  });
}
