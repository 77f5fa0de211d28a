import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeProduct, mockApi, renderPage, stateWith } from '../../../test/catalogue-utils';
import { admin } from '../../../test/render';
import ProductEditPage from './ProductEditPage';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));

const draft = makeProduct({ name: 'Sample name', price: 0, isDraft: true });
const lamp = makeProduct({ name: 'Desk Lamp', slug: 'desk-lamp', price: 24.5, category: 'Home', brand: 'Lumo', countInStock: 3 });
const listAddress = '/admin/products?stock=low&page=2';

beforeEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

describe('/admin/product (new)', () => {
  it('creates nothing on opening; Create asks the server once, then opens the edit page', async () => {
    const api = mockApi({ 'POST products': () => ({ status: 201, body: { message: 'Product created successfully', product: draft } }) });
    renderPage(<ProductEditPage />, { route: '/admin/product', path: '/admin/product', state: stateWith(admin) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Create Product' })).toBeInTheDocument();
    expect(screen.getByText('Are you sure to create a new product?')).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 50));
    expect(api.callsTo('POST products')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/admin/product/${draft._id}`));
    expect(api.callsTo('POST products')).toHaveLength(1);
    expect(toast.success).toHaveBeenCalledWith('Product created successfully');
  });

  it('Cancel goes back to the list the admin came from, without creating anything', async () => {
    const api = mockApi({});
    const { router } = renderPage(<ProductEditPage />, { route: '/admin/products', path: '/admin/product', state: stateWith(admin) });
    await act(() => router.navigate('/admin/product', { state: { returnTo: listAddress } }));
    await userEvent.click(await screen.findByRole('link', { name: 'Cancel' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(listAddress));
    expect(api.calls).toHaveLength(0);
  });

  it('a failed create is a toast and the page stays', async () => {
    mockApi({ 'POST products': () => ({ status: 500, body: { message: 'Something went wrong' } }) });
    renderPage(<ProductEditPage />, { route: '/admin/product', path: '/admin/product', state: stateWith(admin) });
    await userEvent.click(await screen.findByRole('button', { name: 'Create' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalled());
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/admin\/product$/);
  });
});

describe('/admin/product/{id}', () => {
  it('after Update, and from Back to products, returns to the list page and filters it came from', async () => {
    mockApi({
      [`GET products/${lamp._id}`]: () => ({ body: lamp }),
      'GET products/categories': () => ({ body: ['Home'] }),
      [`PUT products/${lamp._id}`]: () => ({ body: { message: 'Product updated successfully', product: lamp } }),
    });
    const { router } = renderPage(<ProductEditPage />, { route: '/admin/products', path: '/admin/product/:id', state: stateWith(admin) });
    await act(() => router.navigate(`/admin/product/${lamp._id}`, { state: { returnTo: listAddress } }));
    expect(await screen.findByRole('link', { name: /Back to products/ })).toHaveAttribute('href', listAddress);
    expect(await screen.findByLabelText('Name')).toHaveValue('Desk Lamp');
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(listAddress));
    expect(toast.success).toHaveBeenCalledWith('Product updated successfully');
  });

  it('opened directly (no list to return to), Update goes to the product list', async () => {
    mockApi({
      [`GET products/${lamp._id}`]: () => ({ body: lamp }),
      [`PUT products/${lamp._id}`]: () => ({ body: { message: 'Product updated successfully', product: lamp } }),
    });
    renderPage(<ProductEditPage />, { route: `/admin/product/${lamp._id}`, path: '/admin/product/:id', state: stateWith(admin) });
    expect(await screen.findByLabelText('Name')).toHaveValue('Desk Lamp');
    expect(screen.queryByText(/^Draft:/)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/admin\/products$/));
  });

  it('says a draft is hidden from the shop until it is saved', async () => {
    mockApi({ [`GET products/${draft._id}`]: () => ({ body: draft }) });
    renderPage(<ProductEditPage />, { route: `/admin/product/${draft._id}`, path: '/admin/product/:id', state: stateWith(admin) });
    expect(await screen.findByText('Draft: hidden from the shop until Update saves it with every required field.')).toHaveAttribute('role', 'status');
  });
});
