import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeProduct, mockApi, renderPage, stateWith } from '../../../test/catalogue-utils';
import { admin } from '../../../test/render';
import ProductListPage from './ProductListPage';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));

const lamp = makeProduct({ name: 'Desk Lamp', price: 24.5, category: 'Home', brand: 'Lumo' });
const draft = makeProduct({ name: 'Sample name', price: 0, isDraft: true });

const renderList = (route = '/admin/products') => renderPage(<ProductListPage />, { route, path: '/admin/products', state: stateWith(admin) });

beforeEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

describe('ProductListPage', () => {
  it('lists a page of products with Edit and Delete, drafts flagged, and page links', async () => {
    const api = mockApi({ 'GET products/admin': () => ({ body: { products: [lamp, draft], page: 2, pages: 3, countProducts: 22 } }) });
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
      'GET products/admin': () => ({ body: { products: [lamp], page: 1, pages: 1, countProducts: 1 } }),
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
      'GET products/admin': () => ({ body: { products, page: 1, pages: 1, countProducts: products.length } }),
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
});
