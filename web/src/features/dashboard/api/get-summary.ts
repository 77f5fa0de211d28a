import type { OrderSummary } from '@shop/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

const DAY_MS = 86_400_000;

/** The last `days` UTC days up to today, as the summary's from/to. */
export function rangeOfDays(days: number, now = new Date()): { from: string; to: string } {
  const to = now.toISOString().slice(0, 10);
  const from = new Date(Date.parse(`${to}T00:00:00Z`) - (days - 1) * DAY_MS).toISOString().slice(0, 10);
  return { from, to };
}

/** GET orders/summary?from=&to= (admin). */
export const getSummary = (range: { from: string; to: string }) => api.get<OrderSummary>('orders/summary', range);

export const summaryQueryOptions = (range: { from: string; to: string }) =>
  queryOptions({ queryKey: ['orders', 'summary', range], queryFn: () => getSummary(range), placeholderData: keepPreviousData });

export function useSummary(range: { from: string; to: string }) {
  return useQuery(summaryQueryOptions(range));
}
