import type { Order, OrderListResponse } from '@shop/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { admin, emailText, mockApi } from '../../../test/render';
import { makeState, renderWithProviders } from '../../../test/cart-utils';
import { makeOrder } from '../test-data';
import OrderListPage from './OrderListPage';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));

const page = (orders: Order[], extra: Partial<OrderListResponse> = {}): OrderListResponse =>
  ({ orders: orders.map((o) => ({ ...o, userEmail: o.user ? 'jane@example.com' : null })), page: 1, pages: 1, countOrders: orders.length, ...extra });

beforeEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

describe('OrderListPage (admin)', () => {
  it("shows the user's name or DELETED USER", async () => {
    mockApi({ 'GET orders': () => ({ body: page([makeOrder(), makeOrder({ _id: 'eeeeeeeeeeeeeeeeeeeeeeee', user: null })]) }) });
    renderWithProviders(<OrderListPage />, { state: makeState({ userInfo: admin }) });
    const rows = await screen.findAllByTestId('order-row');
    expect(within(rows[0]!).getAllByRole('cell')[1]).toHaveTextContent('Jane Customer');
    expect(within(rows[1]!).getAllByRole('cell')[1]).toHaveTextContent('DELETED USER');
  });

  it('deletes an order after confirmation', async () => {
    let orders = [makeOrder(), makeOrder({ _id: 'eeeeeeeeeeeeeeeeeeeeeeee' })];
    const api = mockApi({
      'GET orders': () => ({ body: page(orders) }),
      'DELETE orders/eeeeeeeeeeeeeeeeeeeeeeee': () => {
        orders = orders.filter((o) => o._id !== 'eeeeeeeeeeeeeeeeeeeeeeee');
        return { body: { message: 'Order deleted successfully' } };
      },
    });
    renderWithProviders(<OrderListPage />, { state: makeState({ userInfo: admin }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete order eeeeeeeeeeeeeeeeeeeeeeee' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Are you sure you want to delete this order?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Order deleted successfully'));
    expect(api.callsTo('DELETE orders/eeeeeeeeeeeeeeeeeeeeeeee')).toHaveLength(1);
    await waitFor(() => expect(screen.getAllByTestId('order-row')).toHaveLength(1));
  });

  it('asks the server for a page, a filter and a search, marks expired orders and links Details', async () => {
    const urls: URL[] = [];
    mockApi({ 'GET orders': (_body, url) => { urls.push(url); return { body: page([makeOrder({ isPaid: false, paidAt: null, isExpired: true })], { page: 2, pages: 3, countOrders: 41 }) }; } });
    renderWithProviders(<OrderListPage />, { state: makeState({ userInfo: admin }), route: '/admin/orders?filter=expired&search=jane&page=2' });
    const [row] = await screen.findAllByTestId('order-row');
    expect(within(row!).getByText('Expired')).toBeInTheDocument();
    expect(within(row!).getByText(emailText('jane@example.com'))).toBeInTheDocument();
    expect(Object.fromEntries(urls[0]!.searchParams)).toEqual({ page: '2', filter: 'expired', search: 'jane' });
    expect(within(row!).getByRole('link', { name: /Details of order/ })).toHaveAttribute('href', expect.stringMatching(/^\/order\//));
    expect(screen.getByRole('link', { name: 'Page 3' })).toHaveAttribute('href', '/admin/orders?filter=expired&search=jane&page=3');
  });

  it('asks before delivering a paid order', async () => {
    const order = makeOrder({ isPaid: true, paidAt: '2026-01-01T00:00:00.000Z', isDelivered: false });
    const api = mockApi({
      'GET orders': () => ({ body: page([order]) }),
      [`PUT orders/${order._id}/deliver`]: () => ({ body: { message: 'Order is delivered', order: { ...order, isDelivered: true, deliveredAt: '2026-01-02T00:00:00.000Z' } } }),
    });
    renderWithProviders(<OrderListPage />, { state: makeState({ userInfo: admin }) });
    await userEvent.click(await screen.findByRole('button', { name: `Deliver order ${order._id}` }));
    const dialog = await screen.findByRole('dialog');
    expect(api.callsTo(`PUT orders/${order._id}/deliver`)).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Deliver' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Order is delivered'));
  });

  it('shows No orders found for an empty page', async () => {
    mockApi({ 'GET orders': () => ({ body: page([]) }) });
    renderWithProviders(<OrderListPage />, { state: makeState({ userInfo: admin }) });
    expect(await screen.findByText('No orders found')).toBeInTheDocument();
  });
});
