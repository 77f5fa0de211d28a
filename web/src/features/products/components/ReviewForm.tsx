import type { Product } from '@shop/contracts';
import { REVIEW_MESSAGES, REVIEW_RATING_LABELS } from '@shop/contracts/constants';
import { useState, type FormEvent } from 'react';
import { toast } from '../../../lib/toast';
import { getErrorMessage } from '../../../lib/api-client';
import { useCreateReview } from '../api/create-review';

/** The longest comment the server accepts (REVIEW_MESSAGES.commentMax). */
export const REVIEW_COMMENT_MAX = 2000;

/** SPEC.md section 5, "Review". */
export const RATING_OPTIONS = ([1, 2, 3, 4, 5] as const).map((value) => ({ value, label: `${value} ${REVIEW_RATING_LABELS[value]}` }));

interface ReviewFormProps {
  product: Pick<Product, '_id' | 'slug'>;
  /** Called after a successful submit (the page scrolls to the reviews). */
  onSubmitted: () => void;
}

/** Rating and comment, both required; the success flow is in useCreateReview and onSubmitted. */
export function ReviewForm({ product, onSubmitted }: ReviewFormProps) {
  const [rating, setRating] = useState('');
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const createReview = useCreateReview(product);
  const length = comment.trim().length;
  const isTooLong = length > REVIEW_COMMENT_MAX;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!rating || !comment.trim()) {
      setError(REVIEW_MESSAGES.required);
      return;
    }
    if (comment.trim().length > REVIEW_COMMENT_MAX) {
      setError(REVIEW_MESSAGES.commentMax);
      return;
    }
    setError(null);
    try {
      await createReview.mutateAsync({ rating: Number(rating), comment: comment.trim() });
      setRating('');
      setComment('');
      toast.success(REVIEW_MESSAGES.created);
      onSubmitted();
    } catch (err) {
      setError(getErrorMessage(err));
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby="write-review-heading">
      <h3 id="write-review-heading" className="h5">
        Write a customer review
      </h3>
      {error && (
        <div className="alert alert-danger" role="alert">
          {error}
        </div>
      )}
      <div className="mb-3">
        <label htmlFor="review-rating" className="form-label">
          Rating
        </label>
        <select id="review-rating" className="form-select" value={rating} onChange={(e) => setRating(e.target.value)}>
          <option value="">Select...</option>
          {RATING_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
      <div className="mb-3">
        <label htmlFor="review-comment" className="form-label">
          Comments
        </label>
        {/* No maxLength: a pasted text is never cut silently; the counter and the check say what is too long. */}
        <textarea
          id="review-comment"
          className={`form-control ${isTooLong ? 'is-invalid' : ''}`}
          rows={3}
          placeholder="Leave a comment here"
          value={comment}
          onChange={(e) => setComment(e.target.value)}
          aria-describedby="review-comment-count"
          aria-invalid={isTooLong || undefined}
        />
        <div id="review-comment-count" className={`form-text ${isTooLong ? 'text-danger' : ''}`} aria-live="polite">
          {length} / {REVIEW_COMMENT_MAX} characters{isTooLong ? ` — ${length - REVIEW_COMMENT_MAX} too many` : ''}
        </div>
      </div>
      <button type="submit" className="btn btn-primary" data-early="review-submit" disabled={createReview.isPending || isTooLong}>
        Submit
      </button>
    </form>
  );
}
