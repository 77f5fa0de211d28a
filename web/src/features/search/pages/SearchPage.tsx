import { CARD_IMAGE_SIZES } from '@shop/contracts/images';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { paths, searchUrl } from '../../../lib/paths';
import { PageLoading } from '../../../components/PageLoading';
import { MessageBox } from '../../../components/MessageBox';
import { PageTitle } from '../../../components/PageTitle';
import { Paginator } from '../../../components/Paginator';
import { ProductCard } from '../../../components/ProductCard';
import { getErrorMessage } from '../../../lib/api-client';
import { useSearchProducts } from '../api/search-products';
import { SearchFilters } from '../components/SearchFilters';
import { SearchSuggestions } from '../components/SearchSuggestions';
import { hasActiveFilters, parseSearchFilters, resultsSummary, SORT_OPTIONS, tagLabel } from '../lib/search-filters';

/**
 * The first two rows on a phone (2 per row) are in view: they load at once with high priority, one
 * of them is the largest paint (sub-pixel widths can make the second row's image the "largest").
 * The rest load lazily.
 */
const EAGER_CARDS = 4;

export default function SearchPage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const filters = parseSearchFilters(searchParams);
  const { data, isPending, error, isPlaceholderData } = useSearchProducts(filters);
  const [showFilters, setShowFilters] = useState(false);
  const title = filters.tag !== 'all' ? `${tagLabel(filters.tag)} Products` : 'Search Products';

  return (
    <>
      <PageTitle title={title} />
      <div className="row g-4">
        <div className="col-lg-3">
          <button
            type="button"
            className="btn btn-outline-secondary btn-sm d-lg-none mb-2"
            aria-expanded={showFilters}
            aria-controls="search-filters"
            data-early="search-filters-toggle"
            onClick={() => setShowFilters((v) => !v)}
          >
            {showFilters ? 'Hide Filters' : 'Show Filters'}
          </button>
          <div id="search-filters" className={showFilters ? 'd-block' : 'd-none d-lg-block'}>
            <SearchFilters filters={filters} />
          </div>
        </div>
        <div className="col-lg-9">
          {isPending ? (
            <PageLoading />
          ) : error ? (
            <MessageBox variant="danger">{getErrorMessage(error)}</MessageBox>
          ) : (
            <div aria-busy={isPlaceholderData}>
              <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-3">
                <div className="d-flex align-items-center gap-2">
                  <span data-testid="results-summary" aria-live="polite">
                    {resultsSummary(data.countProducts, filters)}
                  </span>
                  {hasActiveFilters(filters) && (
                    <button type="button" className="btn btn-light btn-sm border" aria-label="Clear filters" data-early="search-clear" onClick={() => navigate(paths.search)}>
                      <span aria-hidden="true">✕</span>
                    </button>
                  )}
                </div>
                <div className="d-flex align-items-center gap-2">
                  <label htmlFor="search-sort" className="text-nowrap mb-0">
                    Sort by
                  </label>
                  <select
                    id="search-sort"
                    className="form-select form-select-sm"
                    value={filters.order}
                    onChange={(e) => navigate(searchUrl({ ...filters, order: e.target.value, page: 1 }))}
                  >
                    {SORT_OPTIONS.map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
                      </option>
                    ))}
                  </select>
                </div>
              </div>
              {data.countProducts > 0 && data.page !== filters.page && (
                <MessageBox variant="info">
                  Page {filters.page} does not exist: showing page {data.page} of {data.pages}.
                </MessageBox>
              )}
              {data.products.length === 0 ? (
                <>
                  <MessageBox>No Product Found</MessageBox>
                  {data.suggestions && <SearchSuggestions suggestions={data.suggestions} />}
                </>
              ) : (
                <div className="row row-cols-2 row-cols-lg-3 g-3">
                  {data.products.map((product, i) => (
                    <div className="col" key={product._id}>
                      <ProductCard product={product} isPriority={i < EAGER_CARDS} sizes={CARD_IMAGE_SIZES.search} />
                    </div>
                  ))}
                </div>
              )}
              <Paginator page={data.page} pages={data.pages} hrefFor={(n) => searchUrl({ ...filters, page: n })} />
            </div>
          )}
        </div>
      </div>
    </>
  );
}
