import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeProduct, mockApi, renderPage, stateWith } from '../../../test/catalogue-utils';
import { productsReturnTo } from '../lib/return-to';
import { admin } from '../../../test/render';
import ProductListPage from './ProductListPage';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));

const lamp = makeProduct({ name: 'Desk Lamp', price: 24.5, category: 'Home', brand: 'Lumo', countInStock: 12 });
const draft = makeProduct({ name: 'Sample name', price: 0, isDraft: true, image: '', countInStock: 0 });
const lowMug = makeProduct({ name: 'Blue Mug', price: 8, category: 'Kitchen', countInStock: 5 });
const listOf = (products: unknown[], over: Record<string, unknown> = {}) => ({
  body: { products, page: 1, pages: 1, countProducts: products.length, categories: ['Home', 'Kitchen'], ...over },
});

const renderList = (route = '/admin/products') => renderPage(<ProductListPage />, { route, path: '/admin/products', state: stateWith(admin) });

beforeEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

describe('ProductListPage', () => {
  it('lists a page of products with Edit and Delete, drafts flagged, and page links', async () => {
    const api = mockApi({ 'GET products/admin': () => ({ body: { products: [lamp, draft], page: 2, pages: 3, countProducts: 22, categories: ['Home'] } }) });
    renderList('/admin/products?page=2');
    const row = (await screen.findByText('Desk Lamp')).closest('tr')!;
    expect(within(row).getByText('$24.50')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Edit Desk Lamp' })).toHaveAttribute('href', `/admin/product/${lamp._id}`);
    expect(within(screen.getByText('Sample name').closest('tr')!).getByText('Draft')).toBeInTheDocument();
    expect(Object.fromEntries(api.callsTo('GET products/admin')[0]!.query)).toEqual({ page: '2', pageSize: '10' });
    expect(screen.getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Page 3' })).toHaveAttribute('href', '/admin/products?page=3');
  });

  it('Create Product asks first, then creates a draft and opens its edit page', async () => {
    const api = mockApi({
      'GET products/admin': () => ({ body: { products: [lamp], page: 1, pages: 1, countProducts: 1, categories: ['Home'] } }),
      'POST products': () => ({ status: 201, body: { message: 'Product created successfully', product: draft } }),
    });
    renderList();
    await userEvent.click(await screen.findByRole('button', { name: 'Create Product' }));
    const dialog = await screen.findByRole('dialog');
    expect(api.callsTo('POST products')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/admin/product/${draft._id}`));
    expect(toast.success).toHaveBeenCalledWith('Product created successfully');
  });

  it('Delete asks first, deletes, reports and reloads the list', async () => {
    let products = [lamp, draft];
    const api = mockApi({
      'GET products/admin': () => ({ body: { products, page: 1, pages: 1, countProducts: products.length, categories: ['Home'] } }),
      [`DELETE products/${lamp._id}`]: () => {
        products = [draft];
        return { body: { message: 'Product deleted successfully' } };
      },
    });
    renderList();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Desk Lamp' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Are you sure to delete Desk Lamp?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Product deleted successfully'));
    expect(api.callsTo(`DELETE products/${lamp._id}`)).toHaveLength(1);
    await waitFor(() => expect(screen.queryByText('Desk Lamp')).not.toBeInTheDocument());
  });

  it('shows a thumbnail and the stock with out-of-stock and low-stock badges', async () => {
    mockApi({ 'GET products/admin': () => listOf([lamp, lowMug, draft]) });
    renderList();
    const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr')!;
    const lampRow = await rowOf('Desk Lamp');
    expect(within(lampRow).getByTestId('product-thumbnail')).toHaveAttribute('src', lamp.image);
    expect(within(lampRow).getByTestId('product-stock')).toHaveTextContent(/^12$/);
    expect(within(await rowOf('Blue Mug')).getByTestId('product-stock')).toHaveTextContent('5Low stock');
    const draftRow = await rowOf('Sample name');
    expect(within(draftRow).getByTestId('product-stock')).toHaveTextContent('0Out of stock');
    expect(within(draftRow).queryByTestId('product-thumbnail')).not.toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['ID', 'IMAGE', 'NAME', 'PRICE', 'CATEGORY', 'STOCK', 'BRAND', 'ACTIONS']);
  });

  it('reads search, category, stock, sort and page from the address and sends them to the server', async () => {
    const api = mockApi({ 'GET products/admin': () => listOf([lowMug], { page: 2, pages: 2, countProducts: 11 }) });
    renderList('/admin/products?search=mug&category=Kitchen&stock=low&sort=price&page=2');
    await screen.findByText('Blue Mug');
    expect(Object.fromEntries(api.callsTo('GET products/admin')[0]!.query)).toEqual({
      page: '2', pageSize: '10', search: 'mug', category: 'Kitchen', stock: 'low', sort: 'price',
    });
    expect(screen.getByRole('searchbox', { name: 'Search products by name' })).toHaveValue('mug');
    expect(screen.getByLabelText('Category')).toHaveValue('Kitchen');
    expect(screen.getByLabelText('Stock')).toHaveValue('low');
    expect(screen.getByLabelText('Sort by')).toHaveValue('price');
    expect(screen.getByText('11 products')).toBeInTheDocument();
    // Page links keep the filters; Edit hands the current address to the edit page.
    expect(screen.getByRole('link', { name: 'Page 1' })).toHaveAttribute('href', '/admin/products?search=mug&category=Kitchen&stock=low&sort=price');
  });

  it('changing a filter or searching goes back to page 1 and keeps the other filters in the address', async () => {
    const api = mockApi({ 'GET products/admin': () => listOf([lamp, lowMug], { page: 1, pages: 3, countProducts: 25 }) });
    renderList('/admin/products?sort=name&page=3');
    await screen.findByText('Desk Lamp');
    await userEvent.selectOptions(screen.getByLabelText('Stock'), 'out');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/admin\/products\?stock=out&sort=name$/));
    await userEvent.selectOptions(screen.getByLabelText('Category'), 'Kitchen');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/admin\/products\?category=Kitchen&stock=out&sort=name$/));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search products by name' }), '  lamp ');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/admin\/products\?search=lamp&category=Kitchen&stock=out&sort=name$/));
    await waitFor(() => expect(api.calls.at(-1)!.query.get('search')).toBe('lamp'));
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/admin\/products\?sort=name$/));
    expect(screen.getByRole('searchbox', { name: 'Search products by name' })).toHaveValue('');
  });

  it('a page past the last shows a notice with a link to the last page, not a blank list', async () => {
    mockApi({ 'GET products/admin': () => listOf([], { page: 9, pages: 3, countProducts: 25 }) });
    renderList('/admin/products?stock=low&page=9');
    expect(await screen.findByText(/Page 9 does not exist: there are only 3 pages\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to page 3' })).toHaveAttribute('href', '/admin/products?stock=low&page=3');
    expect(screen.getByRole('navigation', { name: 'Product pages' })).toBeInTheDocument();
    expect(screen.queryByText('No products found')).not.toBeInTheDocument();
  });

  it('no product at all, or none matching: No products found', async () => {
    mockApi({ 'GET products/admin': () => listOf([], { pages: 0 }) });
    renderList('/admin/products?search=zzz');
    expect(await screen.findByText('No products found')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Clear filters' })).toBeInTheDocument();
  });

  it('a server refusal of the filters shows its message', async () => {
    mockApi({ 'GET products/admin': () => ({ status: 400, body: { message: 'Sort must be one of: newest, name, price, stock' } }) });
    renderList('/admin/products?sort=cheapest');
    expect(await screen.findByRole('alert')).toHaveTextContent('Sort must be one of: newest, name, price, stock');
  });
});

describe('productsReturnTo', () => {
  it('keeps a product list address and refuses anything else', () => {
    expect(productsReturnTo({ returnTo: '/admin/products?stock=low&page=2' })).toBe('/admin/products?stock=low&page=2');
    expect(productsReturnTo({ returnTo: '/admin/products' })).toBe('/admin/products');
    expect(productsReturnTo({ returnTo: 'https://evil.example/admin/products' })).toBe('/admin/products');
    expect(productsReturnTo({ returnTo: '/admin/productsX' })).toBe('/admin/products');
    expect(productsReturnTo(null)).toBe('/admin/products');
    expect(productsReturnTo({ returnTo: 42 })).toBe('/admin/products');
  });
});
