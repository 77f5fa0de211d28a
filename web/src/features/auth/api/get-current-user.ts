import type { User } from '@shop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const currentUserKey = ['users', 'current'] as const;

/** GET users/current: null on failure or when signed out. */
export async function getCurrentUser(): Promise<User | null> {
  try {
    return await api.get<User | null>('users/current');
  } catch {
    return null;
  }
}

export const currentUserQueryOptions = (enabled = true) =>
  queryOptions({
    queryKey: currentUserKey,
    queryFn: getCurrentUser,
    enabled,
    staleTime: 5 * 60 * 1000,
    refetchInterval: 30 * 60 * 1000,
    refetchOnWindowFocus: true,
  });

export function useCurrentUser(enabled = true) {
  return useQuery(currentUserQueryOptions(enabled));
}
