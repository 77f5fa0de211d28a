import type { Address } from '@shop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { addressesQueryKey } from './get-addresses';

/** PUT addresses/{id}/default: answers the whole address book. */
export function setDefaultAddress(id: string): Promise<Address[]> {
  return api.put<Address[]>(`addresses/${id}/default`);
}

export function useSetDefaultAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setDefaultAddress,
    onSuccess: (addresses) => queryClient.setQueryData(addressesQueryKey, addresses),
  });
}
