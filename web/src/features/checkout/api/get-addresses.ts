import type { Address } from '@shop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const addressesQueryKey = ['addresses'] as const;

/** GET addresses: the signed-in user's address book, default first. */
export function getAddresses(): Promise<Address[]> {
  return api.get<Address[]>('addresses');
}

export const addressesQueryOptions = () => queryOptions({ queryKey: addressesQueryKey, queryFn: getAddresses });

export function useAddresses() {
  return useQuery(addressesQueryOptions());
}
