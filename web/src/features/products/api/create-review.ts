import type { CreateReviewResponse, Product } from '@shop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { myReviewQueryKey } from './get-my-review';
import { productQueryKey } from './get-product';

export interface CreateReviewBody {
  rating: number;
  comment: string;
}

/** POST products/{productId}/reviews: the reviewer's name comes from the session. */
export const createReview = (productId: string, body: CreateReviewBody) =>
  api.post<CreateReviewResponse>(`products/${productId}/reviews`, body);

/** Creates a review and folds the response into the cached product: review first, count and rating updated. */
export function useCreateReview(product: Pick<Product, '_id' | 'slug'>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateReviewBody) => createReview(product._id, body),
    onSuccess: (data) => {
      queryClient.setQueryData<Product>(productQueryKey(product.slug), (old) =>
        old ? { ...old, reviews: [data.review, ...(old.reviews ?? [])], numReviews: data.numReviews, rating: data.rating } : old,
      );
      // The form gives way to 'You reviewed this product'.
      queryClient.setQueryData(myReviewQueryKey(product._id), { review: data.review });
      // The grids show rating and count too.
      void queryClient.invalidateQueries({ queryKey: ['products', 'home'] });
      void queryClient.invalidateQueries({ queryKey: ['products', 'search'] });
    },
  });
}
