const STAR = 'M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.8z';
const LEFT_HALF = 'M12 2.5L9.1 8.6 2.5 9.4l4.9 4.6-1.3 6.6 5.9-3.3z';
const FILL = '#f5a623';
const STROKE = '#b36b00';

interface RatingProps {
  rating: number;
  /** Shown as 'N reviews' after the stars. */
  numReviews?: number;
  /** Text after the stars instead of the review count (e.g. ' & up' in the search filters). */
  caption?: string;
}

/** Five stars in half steps (one small SVG) with the review count; screen readers get the rating as text. */
export function Rating({ rating, numReviews, caption }: RatingProps) {
  const rounded = Math.round(rating * 2) / 2;
  const label = caption !== undefined ? `${rating} stars${caption}` : `Rated ${rounded} out of 5`;
  return (
    <span className="d-inline-flex align-items-center gap-1">
      <svg role="img" aria-label={label} width="80" height="16" viewBox="0 0 120 24">
        {[0, 1, 2, 3, 4].map((i) => (
          <g key={i} transform={`translate(${i * 24} 0)`}>
            <path d={STAR} fill={rounded >= i + 1 ? FILL : 'none'} stroke={STROKE} strokeWidth="1.4" strokeLinejoin="round" />
            {rounded === i + 0.5 && <path d={LEFT_HALF} fill={FILL} />}
          </g>
        ))}
      </svg>
      {caption !== undefined ? (
        <span aria-hidden="true">{caption}</span>
      ) : (
        numReviews !== undefined && <span className="small text-body-secondary">{numReviews} {numReviews === 1 ? 'review' : 'reviews'}</span>
      )}
    </span>
  );
}
