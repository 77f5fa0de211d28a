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
    let orders = [makeOrder(), makeOrder({ _id: 'eeeeeeeeeeeeeeeeeeeeeeee', number: 1002 })];
    const api = mockApi({
      'GET orders': () => ({ body: page(orders) }),
      'DELETE orders/eeeeeeeeeeeeeeeeeeeeeeee': () => {
        orders = orders.filter((o) => o._id !== 'eeeeeeeeeeeeeeeeeeeeeeee');
        return { body: { message: 'Order deleted successfully' } };
      },
    });
    renderWithProviders(<OrderListPage />, { state: makeState({ userInfo: admin }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete order #1002' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Are you sure you want to delete this order?');
    expect(dialog).toHaveTextContent('Order #1002');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Order deleted successfully'));
    expect(api.callsTo('DELETE orders/eeeeeeeeeeeeeeeeeeeeeeee')).toHaveLength(1);
    await waitFor(() => expect(screen.getAllByTestId('order-row')).toHaveLength(1));
  });

  it('asks the server for a page, a status and a search, shows the number and status, and links Details', async () => {
    const urls: URL[] = [];
    mockApi({ 'GET orders': (_body, url) => { urls.push(url); return { body: page([makeOrder({ number: 1007, isPaid: false, paidAt: null, isExpired: true, status: 'expired' })], { page: 2, pages: 3, countOrders: 41 }) }; } });
    renderWithProviders(<OrderListPage />, { state: makeState({ userInfo: admin }), route: '/admin/orders?status=expired&search=%231007&page=2' });
    const [row] = await screen.findAllByTestId('order-row');
    expect(within(row!).getAllByRole('cell')[0]).toHaveTextContent(/^#1007$/);
    expect(within(row!).getByTestId('order-status')).toHaveTextContent('Expired');
    expect(within(row!).getByText(emailText('jane@example.com'))).toBeInTheDocument();
    expect(Object.fromEntries(urls[0]!.searchParams)).toEqual({ page: '2', status: 'expired', search: '#1007' });
    expect(screen.getByLabelText('Status')).toHaveValue('expired');
    expect(within(row!).getByRole('link', { name: 'Details of order #1007' })).toHaveAttribute('href', '/order/cccccccccccccccccccccccc');
    expect(screen.getByRole('link', { name: 'Page 3' })).toHaveAttribute('href', '/admin/orders?status=expired&search=%231007&page=3');
  });

  it('filters by every status of an order, and All asks for none', async () => {
    const urls: URL[] = [];
    mockApi({ 'GET orders': (_body, url) => { urls.push(url); return { body: page([makeOrder()]) }; } });
    renderWithProviders(<OrderListPage />, { state: makeState({ userInfo: admin }), route: '/admin/orders', path: '/admin/orders' });
    await screen.findAllByTestId('order-row');
    const select = screen.getByLabelText('Status');
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['All', 'Unpaid', 'Paid', 'Partially refunded', 'Refunded', 'Cancelled', 'Expired', 'Delivered']);
    expect(urls[0]!.searchParams.has('status')).toBe(false);
    await userEvent.selectOptions(select, 'partially_refunded');
    await waitFor(() => expect(urls.at(-1)!.searchParams.get('status')).toBe('partially_refunded'));
    expect(screen.getByTestId('location')).toHaveTextContent('/admin/orders?status=partially_refunded');
  });

  it('offers Refund and Cancel instead of Delete on orders that kept money; Delete on unpaid, cancelled, expired and refunded ones', async () => {
    const paid = makeOrder({ _id: '000000000000000000000001', number: 1001, isPaid: true, paidAt: '2026-01-01T00:00:00.000Z', expiresAt: null, status: 'paid' });
    const partly = makeOrder({ _id: '000000000000000000000002', number: 1002, isPaid: true, paidAt: '2026-01-01T00:00:00.000Z', isDelivered: true, deliveredAt: '2026-01-03T00:00:00.000Z', expiresAt: null, status: 'partially_refunded', refundedAmount: 9 });
    const unpaid = makeOrder({ _id: '000000000000000000000003', number: 1003 });
    const cancelled = makeOrder({ _id: '000000000000000000000004', number: 1004, status: 'cancelled', cancelledAt: '2026-01-02T00:00:00.000Z' });
    const expired = makeOrder({ _id: '000000000000000000000005', number: 1005, isExpired: true, status: 'expired' });
    const refunded = makeOrder({ _id: '000000000000000000000006', number: 1006, isPaid: true, paidAt: '2026-01-01T00:00:00.000Z', expiresAt: null, status: 'refunded', refundedAmount: 18 });
    const api = mockApi({
      'GET orders': () => ({ body: page([paid, partly, unpaid, cancelled, expired, refunded]) }),
      [`POST orders/${paid._id}/cancel`]: () => ({ body: { order: { ...paid, status: 'cancelled', cancelledAt: '2026-01-02T00:00:00.000Z', refundedAmount: 18 } } }),
    });
    renderWithProviders(<OrderListPage />, { state: makeState({ userInfo: admin }) });
    const rows = await screen.findAllByTestId('order-row');
    const actions = (row: HTMLElement) => [...within(row).getAllByRole('cell').at(-1)!.querySelectorAll('a, button')].map((el) => el.textContent);
    expect(rows.map(actions)).toEqual([
      ['Details', 'Deliver', 'Refund', 'Cancel'],
      ['Details', 'Undeliver', 'Refund'], // delivered: refunded, never cancelled
      ['Details', 'Cancel', 'Delete'],
      ['Details', 'Delete'],
      ['Details', 'Delete'],
      ['Details', 'Cancel', 'Delete'], // refunded in full: may still be marked cancelled, or deleted (archived)
    ]);
    expect(within(rows[1]!).getByText('−$9.00 refunded')).toBeInTheDocument();
    // Refund opens the order page's dialog.
    expect(within(rows[0]!).getByRole('link', { name: 'Refund order #1001' })).toHaveAttribute('href', `/order/${paid._id}?refund=1`);
    // Cancel asks first, says the refund, and sends the cancel with an Idempotency-Key.
    await userEvent.click(within(rows[0]!).getByRole('button', { name: 'Cancel order #1001' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel order #1001' });
    expect(dialog).toHaveTextContent('refunded in full: $18.00 goes back to the customer');
    expect(api.callsTo(`POST orders/${paid._id}/cancel`)).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Order #1001 is cancelled'));
    expect(api.callsTo(`POST orders/${paid._id}/cancel`)[0]?.headers?.['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);
  });

  it('asks before delivering a paid order', async () => {
    const order = makeOrder({ isPaid: true, paidAt: '2026-01-01T00:00:00.000Z', isDelivered: false });
    const api = mockApi({
      'GET orders': () => ({ body: page([order]) }),
      [`PUT orders/${order._id}/deliver`]: () => ({ body: { message: 'Order is delivered', order: { ...order, isDelivered: true, deliveredAt: '2026-01-02T00:00:00.000Z' } } }),
    });
    renderWithProviders(<OrderListPage />, { state: makeState({ userInfo: admin }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Deliver order #1001' }));
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
