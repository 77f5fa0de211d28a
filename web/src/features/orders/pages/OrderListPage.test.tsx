import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { admin, mockApi } from '../../../test/render';
import { makeState, renderWithProviders } from '../../cart/test-utils';
import { makeOrder } from '../test-data';
import OrderListPage from './OrderListPage';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));

beforeEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

describe('OrderListPage (admin)', () => {
  it("shows the user's name or DELETED USER", async () => {
    mockApi({ 'GET orders': () => ({ body: [makeOrder(), makeOrder({ _id: 'eeeeeeeeeeeeeeeeeeeeeeee', user: null })] }) });
    renderWithProviders(<OrderListPage />, { state: makeState({ userInfo: admin }) });
    const rows = await screen.findAllByTestId('order-row');
    expect(within(rows[0]!).getAllByRole('cell')[1]).toHaveTextContent('Jane Customer');
    expect(within(rows[1]!).getAllByRole('cell')[1]).toHaveTextContent('DELETED USER');
  });

  it('deletes an order after confirmation', async () => {
    let orders = [makeOrder(), makeOrder({ _id: 'eeeeeeeeeeeeeeeeeeeeeeee' })];
    const api = mockApi({
      'GET orders': () => ({ body: orders }),
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
});
