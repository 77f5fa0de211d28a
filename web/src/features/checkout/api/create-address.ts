import type { Address, AddressBody } from '@shop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { addressesQueryKey } from './get-addresses';

/** POST addresses. */
export function createAddress(body: AddressBody): Promise<Address> {
  return api.post<Address>('addresses', body);
}

export function useCreateAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAddress,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: addressesQueryKey }),
  });
}
