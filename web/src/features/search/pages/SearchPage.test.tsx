import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeProduct, mockApi, renderPage } from '../../../test/catalogue-utils';
import SearchPage from './SearchPage';

const categories = ['Electronics', 'Kitchen'];

function mockSearch(result: { count: number; pages?: number; page?: number }) {
  const products = Array.from({ length: Math.min(result.count, 12) }, (_, i) => makeProduct({ name: `Product ${i + 1}`, slug: `product-${i + 1}` }));
  return mockApi({
    'GET products/categories': () => ({ body: categories }),
    'GET products/search': () => ({ body: { products, page: result.page ?? 1, pages: result.pages ?? 1, countProducts: result.count } }),
  });
}

const renderSearch = (route: string) => renderPage(<SearchPage />, { route, path: '/search' });

beforeEach(() => {
  vi.unstubAllGlobals();
});

describe('SearchPage', () => {
  it("reads 'No Results' and 'No Product Found' when nothing matches, without a clear button", async () => {
    mockSearch({ count: 0 });
    renderSearch('/search');
    expect(await screen.findByTestId('results-summary')).toHaveTextContent(/^No Results$/);
    expect(screen.getByText('No Product Found')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Search Products' })).toBeInTheDocument();
  });

  it("reads 'N Results' followed by the active filters, sends them to the server, and X goes to /search", async () => {
    const api = mockSearch({ count: 14, pages: 2 });
    renderSearch('/search?query=mug&category=Kitchen&price=1-50&rating=4&order=lowest');
    expect(await screen.findByTestId('results-summary')).toHaveTextContent(/^14 Results : mug : Kitchen : Price 1-50 : Rating 4 & up$/);
    const call = api.callsTo('GET products/search')[0]!;
    expect(Object.fromEntries(call.query)).toEqual({ query: 'mug', category: 'Kitchen', price: '1-50', rating: '4', order: 'lowest', page: '1', tag: 'all' });
    expect(screen.getAllByRole('heading', { level: 2, name: /^Product \d+$/ })).toHaveLength(12);
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/search$/);
  });

  it('filter links keep the other filters and go back to page 1', async () => {
    mockSearch({ count: 3 });
    renderSearch('/search?query=mug&page=2');
    const department = await screen.findByRole('region', { name: 'Department' });
    await waitFor(() => expect(screen.getByRole('link', { name: 'Electronics' })).toBeInTheDocument());
    expect(department).toContainElement(screen.getByRole('link', { name: 'Electronics' }));
    expect(screen.getByRole('link', { name: 'Electronics' })).toHaveAttribute('href', '/search?query=mug&category=Electronics');
    expect(screen.getByRole('link', { name: '$51 to $200' })).toHaveAttribute('href', '/search?query=mug&price=51-200');
    expect(screen.getByRole('link', { name: '3 stars & up' })).toHaveAttribute('href', '/search?query=mug&rating=3');
    expect(screen.getAllByRole('link', { name: 'Any' })[0]).toHaveAttribute('aria-current', 'true');
  });

  it('the Sort by dropdown has the four labelled options and changes the order in the URL', async () => {
    mockSearch({ count: 3 });
    renderSearch('/search?category=Kitchen');
    const sort = await screen.findByLabelText('Sort by');
    expect([...(sort as HTMLSelectElement).options].map((o) => o.textContent)).toEqual([
      'Newest Arrivals',
      'Price: Low to High',
      'Price: High to Low',
      'Avg. Customer Reviews',
    ]);
    await userEvent.selectOptions(sort, 'Avg. Customer Reviews');
    expect(screen.getByTestId('location')).toHaveTextContent('/search?category=Kitchen&order=toprated');
  });

  it('numbers the page links and marks the current page', async () => {
    mockSearch({ count: 30, pages: 3, page: 2 });
    renderSearch('/search?query=lamp&page=2');
    expect(await screen.findByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Page 1' })).toHaveAttribute('href', '/search?query=lamp');
    expect(screen.getByRole('link', { name: 'Page 3' })).toHaveAttribute('href', '/search?query=lamp&page=3');
  });

  it('an out-of-range page shows the last page the server sent, says so, and links every page', async () => {
    mockSearch({ count: 30, pages: 3, page: 3 });
    renderSearch('/search?query=lamp&page=99');
    expect(await screen.findByText('Page 99 does not exist: showing page 3 of 3.')).toBeInTheDocument();
    expect(screen.getByTestId('results-summary')).toHaveTextContent(/^30 Results/);
    expect(screen.queryByText('No Product Found')).toBeNull();
    expect(screen.getByRole('link', { name: 'Page 3' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Page 1' })).toHaveAttribute('href', '/search?query=lamp');
  });

  it("offers 'did you mean' and categories under 'No Product Found'", async () => {
    mockApi({
      'GET products/categories': () => ({ body: categories }),
      'GET products/search': () => ({ body: { products: [], page: 1, pages: 0, countProducts: 0, suggestions: { didYouMean: 'wireless headphones', categories: ['Electronics', 'Kitchen'] } } }),
    });
    renderSearch('/search?query=zzz%20wireles');
    expect(await screen.findByText('No Product Found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'wireless headphones' })).toHaveAttribute('href', '/search?query=wireless+headphones');
    const browse = screen.getByRole('navigation', { name: 'Browse categories' });
    expect(Array.from(browse.querySelectorAll('a')).map((a) => a.getAttribute('href'))).toEqual(['/search?category=Electronics', '/search?category=Kitchen']);
  });

  it("titles a tag search '{tag} Products'", async () => {
    mockSearch({ count: 1 });
    renderSearch('/search?tag=todays-deal');
    expect(screen.getByRole('heading', { level: 1, name: 'Todays Deal Products' })).toBeInTheDocument();
    expect(await screen.findByTestId('results-summary')).toHaveTextContent('1 Results : Todays Deal');
  });

  it('toggles the filter panel on small screens', async () => {
    mockSearch({ count: 1 });
    renderSearch('/search');
    const toggle = screen.getByRole('button', { name: 'Show Filters' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(document.getElementById('search-filters')).toHaveClass('d-none', 'd-lg-block');
    await userEvent.click(toggle);
    expect(screen.getByRole('button', { name: 'Hide Filters' })).toHaveAttribute('aria-expanded', 'true');
    expect(document.getElementById('search-filters')).toHaveClass('d-block');
  });

  it('shows the server message in a red alert when the search fails', async () => {
    mockApi({ 'GET products/search': () => ({ status: 400, body: { message: 'Page must be a whole number of at least 1' } }) });
    renderSearch('/search');
    expect(await screen.findByRole('alert')).toHaveTextContent('Page must be a whole number of at least 1');
  });
});
