import type { ProductSearchResponse } from '@shop/contracts';
import { Link } from 'react-router';
import { searchUrl } from '../../../lib/paths';

type Suggestions = NonNullable<ProductSearchResponse['suggestions']>;

/** Under 'No Product Found': a "did you mean" query that finds products, and categories to browse. */
export function SearchSuggestions({ suggestions }: { suggestions: Suggestions }) {
  const { didYouMean, categories } = suggestions;
  if (!didYouMean && categories.length === 0) return null;
  return (
    <div className="mt-3" data-testid="search-suggestions">
      {didYouMean && (
        <p className="mb-2">
          Did you mean <Link to={searchUrl({ query: didYouMean })} className="fw-semibold">{didYouMean}</Link>?
        </p>
      )}
      {categories.length > 0 && (
        <nav aria-label="Browse categories">
          <p className="mb-1">Or browse a category:</p>
          <ul className="list-inline mb-0">
            {categories.map((c) => (
              <li key={c} className="list-inline-item mb-1">
                <Link to={searchUrl({ category: c })} className="btn btn-outline-secondary btn-sm">
                  {c}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </div>
  );
}
