import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { StoreProvider, type StoreState } from '../lib/store';

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false },
    },
  });
}

export function AppProviders({ children, queryClient, storeState }: { children: ReactNode; queryClient: QueryClient; storeState?: StoreState }) {
  return (
    <QueryClientProvider client={queryClient}>
      <StoreProvider initialState={storeState}>{children}</StoreProvider>
    </QueryClientProvider>
  );
}
