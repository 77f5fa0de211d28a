import type { DevMailboxResponse } from '@shop/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET dev/mailbox: the mail the shop kept (development only; 404 in production). */
export const fetchDevMailbox = (limit: number) => api.get<DevMailboxResponse>('dev/mailbox', { limit: String(limit) });

/** The page's read (the server renders the page through it as well: a 404 makes the page a 404). */
export const devMailboxQueryOptions = (limit = 50) => ({ queryKey: ['dev-mailbox', limit] as const, queryFn: () => fetchDevMailbox(limit), retry: false });

export function useDevMailbox(limit = 50) {
  return useQuery({ ...devMailboxQueryOptions(limit), refetchInterval: 5_000 });
}

/** Whether this shop has the development mailbox (one small request; false in production). */
export function useDevMailboxAvailable(): boolean {
  const q = useQuery({ queryKey: ['dev-mailbox', 'available'], queryFn: () => fetchDevMailbox(1), retry: false, staleTime: Infinity });
  return q.isSuccess;
}
