import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderPage, stateWith } from '../../../test/catalogue-utils';
import { admin } from '../../../test/render';
import { makeListItem, makeSavedItem, makeSupplierOrder } from '../test-data';
import CjProductsPage from './CjProductsPage';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));

const status = { source: 'offline', notice: 'Offline supplier catalogue: no CJ account is connected (CJ_API_KEY is not set).' };
const categories = { source: 'offline', categories: [{ categoryId: 'CAT-1', categoryName: 'Drinkware', group: 'Home > Kitchen' }] };
const page = (content: unknown[], pageNum: number, totalPages: number) => ({
  data: { content, pageNum, pageSize: 10, total: totalPages * 10, totalPages },
  source: 'offline',
});

/** The open actions menu (react-bootstrap's dropdown) and the names of its items. */
const openMenu = () => waitFor(() => {
  const menu = document.querySelector<HTMLElement>('.dropdown-menu.show');
  if (!menu) throw new Error('no open menu');
  return menu;
});
const menuItems = (menu: HTMLElement) => Array.from(menu.querySelectorAll('.dropdown-item')).map((i) => i.textContent);

const renderList = (route = '/admin/cj-products') =>
  renderPage(<CjProductsPage />, { route, path: '/admin/cj-products', state: stateWith(admin) });

beforeEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

describe('CjProductsPage', () => {
  it('pages the unsaved list from page 1 with Previous/Next and Page X of Y, marking Saved and Not Saved', async () => {
    const saved = makeListItem(2, { isSaved: true, savedProductId: 'e'.repeat(24) });
    const api = mockApi({
      'GET cj/status': () => ({ body: status }),
      'GET cj/categories': () => ({ body: categories }),
      'GET cj/products': (c) => {
        const n = Number(c.query.get('page'));
        return { body: page(n === 1 ? [makeListItem(1), saved] : [makeListItem(11)], n, 3) };
      },
    });
    renderList();
    expect(await screen.findByRole('heading', { name: 'CJ Products Management' })).toBeInTheDocument();
    expect(await screen.findByTestId('supplier-source')).toHaveTextContent('Offline supplier catalogue: no CJ account is connected');
    expect(screen.getByRole('tab', { name: 'Unsaved Products' })).toHaveAttribute('aria-selected', 'true');
    const table = await screen.findByRole('table');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['ID', 'Image', 'Name', 'Price', 'Status', 'Actions']);
    const first = screen.getByText('Supplier Product 1').closest('tr')!;
    expect(within(first).getByText('Not Saved')).toBeInTheDocument();
    expect(within(first).getByText('$4.50')).toBeInTheDocument();
    expect(within(screen.getByText('Supplier Product 2').closest('tr')!).getByText('Saved')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(Object.fromEntries(api.callsTo('GET cj/products')[0]!.query)).toEqual({ page: '1', limit: '10' });

    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Supplier Product 11')).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/admin/cj-products?page=2');
    await userEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByText('Page 1 of 3')).toBeInTheDocument();
  });

  it('offers Edit only for unsaved products, and Edit and Delete for saved ones', async () => {
    const saved = makeListItem(2, { isSaved: true, savedProductId: 'e'.repeat(24) });
    mockApi({
      'GET cj/status': () => ({ body: status }),
      'GET cj/categories': () => ({ body: categories }),
      'GET cj/products': () => ({ body: page([makeListItem(1), saved], 1, 1) }),
    });
    renderList();
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Supplier Product 1' }));
    let menu = await openMenu();
    expect(menuItems(menu)).toEqual(['Edit']);
    expect(within(menu).getByRole('link', { name: 'Edit' })).toHaveAttribute('href', `/admin/cj-product-edit/${makeListItem(1).pid}`);
    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByRole('button', { name: 'Actions for Supplier Product 2' }));
    menu = await openMenu();
    expect(menuItems(menu)).toEqual(['Edit', 'Delete']);
  });

  it('deletes a saved product through the Delete Product dialog', async () => {
    let items = [makeSavedItem({ name: 'Travel Mug' })];
    const api = mockApi({
      'GET cj/status': () => ({ body: status }),
      'GET cj/categories': () => ({ body: categories }),
      'GET cj/products/saved': () => ({ body: { data: { content: items, pageNum: 1, pageSize: 10, total: items.length, totalPages: items.length ? 1 : 0 } } }),
      [`DELETE cj/products/${items[0]!._id}`]: () => {
        items = [];
        return { body: { message: 'Product deleted successfully' } };
      },
    });
    const id = items[0]!._id;
    renderList('/admin/cj-products?tab=saved');
    const row = (await screen.findByText('Travel Mug')).closest('tr')!;
    expect(within(screen.getByRole('table')).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'ID', 'Image', 'Name', 'Price', 'Cost', 'Margin', 'Margin %', 'Status', 'Actions',
    ]);
    expect(within(row).getByText('$6.00')).toBeInTheDocument();
    expect(within(row).getByText('$13.99')).toBeInTheDocument();
    expect(within(row).getByText('70%')).toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: 'Actions for Travel Mug' }));
    expect(menuItems(await openMenu())).toEqual(['Edit', 'View', 'Refresh from supplier', 'Delete']);
    await userEvent.click(within(await openMenu()).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Product' });
    expect(dialog).toHaveTextContent('Are you sure you want to delete this product? This action cannot be undone.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo(`DELETE cj/products/${id}`)).toHaveLength(0);

    await userEvent.click(within(row).getByRole('button', { name: 'Actions for Travel Mug' }));
    await userEvent.click(within(await openMenu()).getByRole('button', { name: 'Delete' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Delete Product' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Product deleted successfully'));
    expect(api.callsTo(`DELETE cj/products/${id}`)).toHaveLength(1);
    expect(await screen.findByText('No products found')).toBeInTheDocument();
  });

  it('searches by name and filters by category', async () => {
    const api = mockApi({
      'GET cj/status': () => ({ body: status }),
      'GET cj/categories': () => ({ body: categories }),
      'GET cj/products': (c) => ({ body: page(c.query.get('query') ? [] : [makeListItem(1)], 1, c.query.get('query') ? 0 : 1) }),
    });
    renderList();
    await screen.findByText('Supplier Product 1');
    await userEvent.type(screen.getByLabelText('Search CJ products'), 'nothing like this');
    await userEvent.selectOptions(screen.getByLabelText('Category'), 'CAT-1');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No products found')).toBeInTheDocument();
    expect(Object.fromEntries(api.callsTo('GET cj/products').at(-1)!.query)).toEqual({ page: '1', limit: '10', query: 'nothing like this', category: 'CAT-1' });
  });

  it('shows an error from the supplier in a red alert', async () => {
    mockApi({
      'GET cj/status': () => ({ body: status }),
      'GET cj/categories': () => ({ body: categories }),
      'GET cj/products': () => ({ status: 429, body: { message: 'CJ is limiting requests right now (too many calls). Please try again in a minute.' } }),
      'GET cj/pricing': () => ({ body: { pricing: { markupPercent: 50, fixedAmount: 0, rounding: '.99' } } }),
    });
    renderList();
    expect(await screen.findByRole('alert')).toHaveTextContent('CJ is limiting requests right now');
  });

  it('lists supplier orders with their state and retries a failed one', async () => {
    const failed = makeSupplierOrder({ status: 'failed', lastError: 'CJ refused the request (code 1605000): Logistic not found', attempts: 1 });
    const sent = makeSupplierOrder({ orderId: 'f'.repeat(24), orderNumber: 1042, status: 'sent', cjOrderId: 'CJ2400000001', sentAt: '2025-01-02T11:00:00.000Z' });
    const api = mockApi({
      'GET cj/status': () => ({ body: status }),
      'GET cj/categories': () => ({ body: categories }),
      'GET cj/orders': () => ({ body: { data: { content: [failed, sent], pageNum: 1, pageSize: 10, total: 2, totalPages: 1 }, source: 'cj' } }),
      [`POST cj/orders/${failed.orderId}/retry`]: () => ({ body: { message: 'Supplier order queued to be sent again', supplierOrder: { ...failed, status: 'pending', attempts: 0 } } }),
    });
    renderList('/admin/cj-products?tab=orders');
    const rows = await screen.findAllByTestId('supplier-order-row');
    expect(rows[0]).toHaveTextContent('Failed: CJ refused the request (code 1605000): Logistic not found');
    expect(rows[1]).toHaveTextContent('Sent to CJ: CJ order CJ2400000001');
    // Our number names the order, its id (CJ's reference) under it; without a number, the id alone.
    expect(within(rows[1]!).getByRole('link', { name: '#1042' })).toHaveAttribute('href', `/admin/order/${'f'.repeat(24)}`);
    expect(rows[1]).toHaveTextContent('f'.repeat(24));
    expect(within(rows[0]!).getByRole('link', { name: failed.orderId })).toBeInTheDocument();
    expect(within(rows[1]!).queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    await userEvent.click(within(rows[0]!).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Supplier order queued to be sent again'));
    expect(api.callsTo(`POST cj/orders/${failed.orderId}/retry`)).toHaveLength(1);
  });
});
