import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { searchUrl } from '../../../lib/paths';
import { Rating } from '../../../components/Rating';
import { useCategories } from '../../products';
import { PRICE_OPTIONS, RATING_OPTIONS, type SearchFilters as Filters } from '../lib/search-filters';

function FilterLink({ to, isActive, children }: { to: string; isActive: boolean; children: ReactNode }) {
  return (
    <li className="mb-1">
      <Link to={to} className={`link-body-emphasis ${isActive ? 'fw-bold' : 'text-decoration-none'}`} aria-current={isActive ? 'true' : undefined}>
        {children}
      </Link>
    </li>
  );
}

function FilterGroup({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mb-3" aria-label={title}>
      <h2 className="h6 fw-bold">{title}</h2>
      <ul className="list-unstyled mb-0">{children}</ul>
    </section>
  );
}

/** Department, Price Range and Customer Rating; every choice is a link that keeps the other filters. */
export function SearchFilters({ filters }: { filters: Filters }) {
  const { data: categories = [] } = useCategories();
  const urlWith = (change: Partial<Filters>) => searchUrl({ ...filters, ...change, page: 1 });
  return (
    <>
      <FilterGroup title="Department">
        <FilterLink to={urlWith({ category: 'all' })} isActive={filters.category === 'all'}>
          Any
        </FilterLink>
        {categories.map((c) => (
          <FilterLink key={c} to={urlWith({ category: c })} isActive={filters.category === c}>
            {c}
          </FilterLink>
        ))}
      </FilterGroup>
      <FilterGroup title="Price Range">
        <FilterLink to={urlWith({ price: 'all' })} isActive={filters.price === 'all'}>
          Any
        </FilterLink>
        {PRICE_OPTIONS.map((p) => (
          <FilterLink key={p.value} to={urlWith({ price: p.value })} isActive={filters.price === p.value}>
            {p.label}
          </FilterLink>
        ))}
      </FilterGroup>
      <FilterGroup title="Customer Rating">
        {RATING_OPTIONS.map((r) => (
          <FilterLink key={r.value} to={urlWith({ rating: r.value })} isActive={filters.rating === r.value}>
            <Rating rating={Number(r.value)} caption=" & up" />
          </FilterLink>
        ))}
        <FilterLink to={urlWith({ rating: 'all' })} isActive={filters.rating === 'all'}>
          Any
        </FilterLink>
      </FilterGroup>
    </>
  );
}
