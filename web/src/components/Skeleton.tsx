// Bootstrap placeholders: grey bars where content is about to appear (no layout jump, no bare spinner).
const WIDTHS = [10, 8, 11, 7, 9, 6];

/** Lines of text still loading (an optional heading bar first). */
export function TextSkeleton({ lines = 4, heading = false, label = 'Loading...' }: { lines?: number; heading?: boolean; label?: string }) {
  return (
    <div className="placeholder-glow" role="status" aria-live="polite">
      <span className="visually-hidden">{label}</span>
      {heading && <span className="placeholder col-6 placeholder-lg d-block mb-3" aria-hidden="true" />}
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} className={`placeholder col-${WIDTHS[i % WIDTHS.length]} d-block mb-2`} aria-hidden="true" />
      ))}
    </div>
  );
}

/** A list (table rows or cards) still loading: `rows` bars as tall as a row. */
export function ListSkeleton({ rows = 5, label = 'Loading...' }: { rows?: number; label?: string }) {
  return (
    <div className="placeholder-glow my-2" role="status" aria-live="polite" data-testid="list-skeleton">
      <span className="visually-hidden">{label}</span>
      <span className="placeholder col-12 mb-2 d-block shop-skeleton-head" aria-hidden="true" />
      {Array.from({ length: rows }, (_, i) => (
        <span key={i} className="placeholder col-12 mb-2 d-block shop-skeleton-row" aria-hidden="true" />
      ))}
    </div>
  );
}
