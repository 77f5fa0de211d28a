import type { Product } from '@shop/contracts';
import { REVIEW_MESSAGES, REVIEW_RATING_LABELS } from '@shop/contracts/constants';
import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { getErrorMessage } from '../../../lib/api-client';
import { useCreateReview } from '../api/create-review';

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

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!rating || !comment.trim()) {
      setError(REVIEW_MESSAGES.required);
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
        <textarea
          id="review-comment"
          className="form-control"
          rows={3}
          maxLength={2000}
          placeholder="Leave a comment here"
          value={comment}
          onChange={(e) => setComment(e.target.value)}
        />
      </div>
      <button type="submit" className="btn btn-primary" disabled={createReview.isPending}>
        Submit
      </button>
    </form>
  );
}
