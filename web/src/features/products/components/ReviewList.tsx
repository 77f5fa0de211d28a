import type { Review } from '@shop/contracts';
import { Rating } from '../../../components/Rating';

/** Reviews newest first: name, rating, date and comment (rendered as text). */
export function ReviewList({ reviews }: { reviews: Review[] }) {
  if (reviews.length === 0) {
    return (
      <div className="alert alert-info" role="status">
        There is no review
      </div>
    );
  }
  return (
    <ul className="list-group mb-3" aria-label="Reviews">
      {reviews.map((review) => (
        <li className="list-group-item" key={review._id}>
          <strong className="shop-break">{review.name}</strong>
          <div>
            <Rating rating={review.rating} />
          </div>
          <div className="small text-body-secondary">
            <time dateTime={review.createdAt}>{review.createdAt.substring(0, 10)}</time>
          </div>
          <p className="mb-0 mt-1 shop-break" style={{ whiteSpace: 'pre-line' }}>
            {review.comment}
          </p>
        </li>
      ))}
    </ul>
  );
}
