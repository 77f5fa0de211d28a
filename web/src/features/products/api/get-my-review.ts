import type { Review } from '@shop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const myReviewQueryKey = (productId: string) => ['products', 'my-review', productId] as const;

/** GET products/{productId}/reviews/mine: the signed-in user's own review, or null. */
export const getMyReview = (productId: string) => api.get<{ review: Review | null }>(`products/${productId}/reviews/mine`);

export const myReviewQueryOptions = (productId: string, enabled: boolean) =>
  queryOptions({ queryKey: myReviewQueryKey(productId), queryFn: () => getMyReview(productId), enabled: enabled && productId !== '' });

export function useMyReview(productId: string, enabled: boolean) {
  return useQuery(myReviewQueryOptions(productId, enabled));
}
