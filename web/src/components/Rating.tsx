import type { CSSProperties } from 'react';

interface RatingProps {
  rating: number;
  /** Shown as 'N reviews' after the stars. */
  numReviews?: number;
  /** Text after the stars instead of the review count (e.g. ' & up' in the search filters). */
  caption?: string;
}

/**
 * Five stars in half steps with the review count; screen readers get the rating as text. The stars
 * are one element (`.shop-stars` in styles.css: a row of outlined stars, the filled ones laid over it
 * up to the rating's width) rather than an SVG of ten shapes: a grid of 24 cards renders, sends and
 * hydrates some 250 fewer elements.
 */
export function Rating({ rating, numReviews, caption }: RatingProps) {
  const rounded = Math.round(rating * 2) / 2;
  const label = caption !== undefined ? `${rating} stars${caption}` : `Rated ${rounded} out of 5`;
  const filled = { '--shop-stars-filled': `${Math.min(5, Math.max(0, rounded)) * 20}%` } as CSSProperties;
  return (
    <span className="d-inline-flex align-items-center gap-1">
      <span role="img" aria-label={label} className="shop-stars" style={filled} />
      {caption !== undefined ? (
        <span aria-hidden="true">{caption}</span>
      ) : (
        numReviews !== undefined && <span className="small text-body-secondary">{numReviews} {numReviews === 1 ? 'review' : 'reviews'}</span>
      )}
    </span>
  );
}
