import { Link } from 'react-router';

interface PaginatorProps {
  page: number;
  pages: number;
  /** The link of page n. */
  hrefFor: (n: number) => string;
  label?: string;
}

/** Numbered page links; the current one is marked for assistive technology. */
export function Paginator({ page, pages, hrefFor, label = 'Pages' }: PaginatorProps) {
  if (pages <= 1) return null;
  return (
    <nav aria-label={label} className="my-3">
      <ul className="pagination flex-wrap mb-0">
        {Array.from({ length: pages }, (_, i) => i + 1).map((n) => (
          <li key={n} className={`page-item${n === page ? ' active' : ''}`}>
            <Link className="page-link" to={hrefFor(n)} aria-current={n === page ? 'page' : undefined} aria-label={`Page ${n}`}>
              {n}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
