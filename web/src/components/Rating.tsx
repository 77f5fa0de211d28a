import { useId } from 'react';

function Star({ fill }: { fill: number }) {
  // fill: 0 (empty) .. 1 (full); a gradient stop draws half stars.
  const id = useId();
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={id}>
          <stop offset={`${fill * 100}%`} stopColor="#f5a623" />
          <stop offset={`${fill * 100}%`} stopColor="transparent" />
        </linearGradient>
      </defs>
      <path
        d="M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.8z"
        fill={`url(#${id})`}
        stroke="#c77c02"
        strokeWidth="1.4"
        strokeLinejoin="round"
      />
    </svg>
  );
}

interface RatingProps {
  rating: number;
  /** Shown as 'N reviews' after the stars. */
  numReviews?: number;
  /** Text after the stars instead of the review count (e.g. ' & up' in the search filters). */
  caption?: string;
}

/** Five stars (half steps) with the review count; screen readers get the rating as text. */
export function Rating({ rating, numReviews, caption }: RatingProps) {
  const rounded = Math.round(rating * 2) / 2;
  const label = caption !== undefined ? `${rating} stars${caption}` : `Rated ${rounded} out of 5`;
  return (
    <span className="d-inline-flex align-items-center gap-1 rating">
      <span role="img" aria-label={label} className="d-inline-flex">
        {[1, 2, 3, 4, 5].map((n) => (
          <Star key={n} fill={rounded >= n ? 1 : rounded >= n - 0.5 ? 0.5 : 0} />
        ))}
      </span>
      {caption !== undefined ? (
        <span aria-hidden="true">{caption}</span>
      ) : (
        numReviews !== undefined && <span className="small text-body-secondary">{numReviews} {numReviews === 1 ? 'review' : 'reviews'}</span>
      )}
    </span>
  );
}
