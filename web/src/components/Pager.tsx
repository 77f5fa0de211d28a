/** Previous / Next with 'Page X of Y' for lists paged in place (supplier lists, leads); pages count from 1. */
export function Pager({ page, pages, onPage, label }: { page: number; pages: number; onPage: (page: number) => void; label: string }) {
  if (pages <= 1 && page <= 1) return null;
  return (
    <nav aria-label={label} className="d-flex align-items-center gap-3 my-3">
      <button type="button" className="btn btn-outline-secondary btn-sm" onClick={() => onPage(page - 1)} disabled={page <= 1}>
        Previous
      </button>
      <span aria-live="polite">
        Page {page} of {Math.max(pages, 1)}
      </span>
      <button type="button" className="btn btn-outline-secondary btn-sm" onClick={() => onPage(page + 1)} disabled={page >= pages}>
        Next
      </button>
    </nav>
  );
}
