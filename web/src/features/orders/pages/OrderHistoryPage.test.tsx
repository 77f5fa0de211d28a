import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { formatClockTime } from '../../../lib/format';
import { customer, mockApi } from '../../../test/render';
import { makeState, renderWithProviders } from '../../../test/cart-utils';
import { makeOrder } from '../test-data';
import OrderHistoryPage from './OrderHistoryPage';

beforeEach(() => {
  vi.unstubAllGlobals();
});

describe('OrderHistoryPage', () => {
  it('formats each row: the number, first 10 characters of the date, $ total, paid/delivered date or No, the status', async () => {
    const paid = makeOrder({
      _id: 'dddddddddddddddddddddddd',
      number: 1002,
      status: 'delivered',
      totalPrice: 1234.5,
      createdAt: '2025-02-01T10:00:00.000Z',
      isPaid: true,
      paidAt: '2025-02-02T11:00:00.000Z',
      isDelivered: true,
      deliveredAt: '2025-02-05T08:30:00.000Z',
    });
    const unpaid = makeOrder({ totalPrice: 7 });
    const refunded = makeOrder({ _id: 'eeeeeeeeeeeeeeeeeeeeeeee', number: 1003, isPaid: true, paidAt: '2025-02-02T11:00:00.000Z', expiresAt: null, status: 'refunded', refundedAmount: 18 });
    mockApi({ 'GET orders/mine': () => ({ body: [paid, unpaid, refunded] }) });
    renderWithProviders(<OrderHistoryPage />, { route: '/orderhistory', state: makeState({ userInfo: customer }) });

    const rows = await screen.findAllByTestId('order-row');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['ID', 'DATE', 'TOTAL', 'PAID', 'DELIVERED', 'STATUS', 'ACTIONS']);
    expect(within(rows[0]!).getAllByRole('cell').map((td) => td.textContent)).toEqual([
      '#1002',
      '2025-02-01',
      '$1,234.50',
      '2025-02-02',
      '2025-02-05',
      'Delivered',
      'Details',
    ]);
    expect(within(rows[1]!).getAllByRole('cell').map((td) => td.textContent)).toEqual(['#1001', '2025-03-09', '$7.00', `NoExpires ${formatClockTime('2025-03-09T19:15:00.000Z')}`, 'No', 'Unpaid', 'Details']);
    expect(within(rows[2]!).getAllByRole('cell').map((td) => td.textContent)).toEqual(['#1003', '2025-03-09', '$18.00', '2025-02-02', 'No', 'Refunded', 'Details']);
    expect(within(rows[2]!).getByRole('button', { name: 'Details of order #1003' })).toBeInTheDocument();
  });

  it("follows a partner's parcel in the shop's words: Processing, Shipped, then the delivery date (issue 34.4)", async () => {
    const at = '2025-03-10T14:05:00.000Z';
    const parcel = { trackingNumber: null, carrier: null, shippedAt: null, deliveredAt: null, checkedAt: at };
    const processing = makeOrder({ _id: 'a'.repeat(24), isPaid: true, paidAt: at, shipment: { ...parcel, status: 'Processing' } });
    const shipped = makeOrder({ _id: 'b'.repeat(24), isPaid: true, paidAt: at, shippingStatus: 'Shipped', shipment: { ...parcel, status: 'Shipped', trackingNumber: 'YT1' } });
    const delivered = makeOrder({ _id: 'd'.repeat(24), isPaid: true, paidAt: at, shippingStatus: 'Shipped', shipment: { ...parcel, status: 'Delivered', trackingNumber: 'YT2', deliveredAt: '2025-03-20T09:00:00.000Z' } });
    mockApi({ 'GET orders/mine': () => ({ body: [processing, shipped, delivered] }) });
    renderWithProviders(<OrderHistoryPage />, { route: '/orderhistory', state: makeState({ userInfo: customer }) });
    const rows = await screen.findAllByTestId('order-row');
    const deliveredCell = (row: HTMLElement) => within(row).getAllByRole('cell')[4]!.textContent;
    expect(rows.map(deliveredCell)).toEqual(['NoProcessing', 'NoShipped', '2025-03-20']);
  });

  it('marks expired unpaid orders, and labels every cell for the stacked phone layout', async () => {
    mockApi({ 'GET orders/mine': () => ({ body: [makeOrder({ isExpired: true })] }) });
    renderWithProviders(<OrderHistoryPage />, { route: '/orderhistory', state: makeState({ userInfo: customer }) });
    const [row] = await screen.findAllByTestId('order-row');
    expect(within(row!).getByTestId('order-expiry')).toHaveTextContent(/^Expired$/);
    expect(within(row!).getAllByRole('cell').map((td) => td.getAttribute('data-label'))).toEqual(['ID', 'DATE', 'TOTAL', 'PAID', 'DELIVERED', 'STATUS', 'ACTIONS']);
    expect(row!.closest('table')).toHaveClass('shop-stack-table');
  });

  it('Details goes to the order page', async () => {
    mockApi({ 'GET orders/mine': () => ({ body: [makeOrder()] }) });
    renderWithProviders(<OrderHistoryPage />, { route: '/orderhistory', path: '/orderhistory', state: makeState({ userInfo: customer }) });
    await userEvent.click(await screen.findByRole('button', { name: /^Details/ }));
    expect(screen.getByTestId('location')).toHaveTextContent('/order/cccccccccccccccccccccccc');
  });

  it('shows an empty state and errors in a red alert', async () => {
    mockApi({ 'GET orders/mine': () => ({ body: [] }) });
    const { unmount } = renderWithProviders(<OrderHistoryPage />, { state: makeState({ userInfo: customer }) });
    expect(await screen.findByText(/You have no orders yet/)).toBeInTheDocument();
    unmount();
    mockApi({ 'GET orders/mine': () => ({ status: 500, body: { message: 'Something broke' } }) });
    renderWithProviders(<OrderHistoryPage />, { state: makeState({ userInfo: customer }) });
    expect(await screen.findByRole('alert')).toHaveTextContent('Something broke');
  });
});
