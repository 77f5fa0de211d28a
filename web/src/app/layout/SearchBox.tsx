import { useEffect, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { searchUrl } from '../../lib/paths';
import { SearchIcon } from './icons';

/**
 * Header search: /search?query=text, or /search when the box is empty. A real form (GET /search,
 * field `query`): before the app has started the browser submits it itself and the server renders the
 * results; once live, the app navigates. The text is read from the form, not the state, so words typed
 * before the app started count.
 */
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

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = new FormData(event.currentTarget).get('query');
    const text = (typeof typed === 'string' ? typed : query).trim();
    navigate(text ? searchUrl({ query: text }) : '/search');
  };

  return (
    <form className="shop-search d-flex flex-grow-1" role="search" action="/search" method="get" onSubmit={submit}>
      <div className="input-group">
        <input
          type="search"
          name="query"
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
