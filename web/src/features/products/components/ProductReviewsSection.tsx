import type { Product } from '@shop/contracts';
import { useRef } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { useStore } from '../../../lib/store';
import { MessageBox } from '../../../components/MessageBox';
import { withRedirect } from '../../auth';
import { useMyReview } from '../api/get-my-review';
import { ReviewForm } from './ReviewForm';
import { ReviewList } from './ReviewList';

/**
 * The reviews of a product page: the list, then the review form for a signed-in shopper who has not
 * reviewed it yet ('You reviewed this product' once they have), or a 'Sign In' link that comes back
 * to `productPath` (neither while a session cookie's user is not known yet). After a review the list scrolls into view; `onReviewed` refreshes what the page shows.
 */
export function ProductReviewsSection({ product, productPath, onReviewed }: { product: Product; productPath: string; onReviewed?: () => void }) {
  const { state } = useStore();
  const ref = useRef<HTMLElement>(null);
  const myReview = useMyReview(product._id, Boolean(state.userInfo));
  const onSubmitted = () => {
    onReviewed?.();
    ref.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
  };
  return (
    <section ref={ref} className="my-4" aria-labelledby="reviews-heading" style={{ scrollMarginTop: '1rem' }}>
      <h2 id="reviews-heading" className="h4">
        Reviews
      </h2>
      <ReviewList reviews={product.reviews ?? []} />
      <div className="my-3" style={{ maxWidth: '40rem' }}>
        {state.userInfo ? (
          myReview.data?.review ? (
            <MessageBox variant="success">You reviewed this product</MessageBox>
          ) : myReview.isPending ? null : (
            <ReviewForm product={product} onSubmitted={onSubmitted} />
          )
        ) : state.sessionPending ? null : (
          <MessageBox>
            Please{' '}
            <Link className="alert-link" to={withRedirect(paths.signin, productPath)}>
              Sign In
            </Link>{' '}
            to write a review
          </MessageBox>
        )}
      </div>
    </section>
  );
}
