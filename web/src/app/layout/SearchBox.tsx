import { useEffect, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { searchUrl } from '../../lib/paths';
import { SearchIcon } from './icons';

/** Header search: /search?query=text, or /search when the box is empty. */
export function SearchBox() {
  const navigate = useNavigate();
  const location = useLocation();
  const [query, setQuery] = useState('');

  // Show the query being searched when the page is a search result.
  useEffect(() => {
    if (location.pathname === '/search') {
      const current = new URLSearchParams(location.search).get('query');
      setQuery(current && current !== 'all' ? current : '');
    }
  }, [location.pathname, location.search]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = query.trim();
    navigate(text ? searchUrl({ query: text }) : '/search');
  };

  return (
    <form className="shop-search d-flex flex-grow-1" role="search" onSubmit={submit}>
      <div className="input-group">
        <input
          type="search"
          name="q"
          className="form-control"
          placeholder="Search products..."
          aria-label="Search products"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <button type="submit" className="btn btn-warning" aria-label="Search" title="Search">
          <SearchIcon />
        </button>
      </div>
    </form>
  );
}
