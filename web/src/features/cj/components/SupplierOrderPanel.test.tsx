import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderPage, stateWith } from '../../../test/catalogue-utils';
import { admin, customer } from '../../../test/render';
import { makeSupplierOrder } from '../test-data';
import { SupplierOrderPanel } from './SupplierOrderPanel';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));

const orderId = 'cccccccccccccccccccccccc';
const renderPanel = (state = stateWith(admin)) => renderPage(<SupplierOrderPanel orderId={orderId} />, { state });

beforeEach(() => {
  vi.unstubAllGlobals();
});

describe('SupplierOrderPanel (admin order page)', () => {
  it('shows a pending supplier order and its lines', async () => {
    mockApi({ [`GET cj/orders/${orderId}`]: () => ({ body: makeSupplierOrder() }) });
    renderPanel();
    expect(await screen.findByRole('heading', { name: /Supplier order/ })).toHaveTextContent('Supplier order Pending');
    expect(screen.getByText('Waiting to be sent to CJ.')).toBeInTheDocument();
    expect(screen.getByText(/2 x Insulated Travel Mug/)).toBeInTheDocument();
  });

  it("says an offline supplier order waits for a CJ account", async () => {
    mockApi({ [`GET cj/orders/${orderId}`]: () => ({ body: makeSupplierOrder({ source: 'offline' }) }) });
    renderPanel();
    expect(await screen.findByText('Waiting: no CJ account is connected (offline catalogue). It will be sent once CJ_API_KEY is set.')).toBeInTheDocument();
  });

  it("shows CJ's order id once sent", async () => {
    mockApi({ [`GET cj/orders/${orderId}`]: () => ({ body: makeSupplierOrder({ status: 'sent', cjOrderId: 'CJ2400000007' }) }) });
    renderPanel();
    expect(await screen.findByText(/^Sent to CJ: CJ order CJ2400000007/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it('shows the reason of a failure and retries it', async () => {
    let order = makeSupplierOrder({ status: 'failed', lastError: 'CJ refused the request (code 1602000): Variant not found', attempts: 1 });
    const api = mockApi({
      [`GET cj/orders/${orderId}`]: () => ({ body: order }),
      [`POST cj/orders/${orderId}/retry`]: () => {
        order = { ...order, status: 'pending', attempts: 0, lastError: null };
        return { body: { message: 'Supplier order queued to be sent again', supplierOrder: order } };
      },
    });
    renderPanel();
    expect(await screen.findByText('Failed: CJ refused the request (code 1602000): Variant not found')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Waiting to be sent to CJ.')).toBeInTheDocument();
    expect(api.callsTo(`POST cj/orders/${orderId}/retry`)).toHaveLength(1);
  });

  it('shows nothing for an order without supplier lines, and nothing to customers', async () => {
    const api = mockApi({ [`GET cj/orders/${orderId}`]: () => ({ status: 404, body: { message: 'This order has no supplier order' } }) });
    renderPanel();
    await waitFor(() => expect(api.calls).toHaveLength(1));
    expect(screen.queryByTestId('supplier-order-panel')).not.toBeInTheDocument();
    const asCustomer = mockApi({});
    renderPanel(stateWith(customer));
    expect(asCustomer.calls).toHaveLength(0);
  });

  it('refreshes the tracking of a sent order now: a toast, and the shipment shown', async () => {
    const sent = makeSupplierOrder({ status: 'sent', cjOrderId: 'CJ2400000007' });
    const shipped = { ...sent, shipment: { status: 'SHIPPED', trackingNumber: 'YT2412345678901234', carrier: 'YunExpress', shippedAt: null, deliveredAt: null, checkedAt: '2026-11-26T20:00:00.000Z' } };
    const api = mockApi({
      [`GET cj/orders/${orderId}`]: () => ({ body: sent }),
      [`POST cj/orders/${orderId}/tracking/refresh`]: () => ({ body: shipped }),
    });
    renderPanel();
    const button = await screen.findByRole('button', { name: 'Refresh tracking' });
    expect(screen.queryByTestId('supplier-shipment')).not.toBeInTheDocument();
    await userEvent.click(button);
    expect(await screen.findByText('YT2412345678901234')).toBeInTheDocument();
    expect(screen.getByTestId('supplier-shipment')).toHaveTextContent('YunExpress');
    expect(api.callsTo(`POST cj/orders/${orderId}/tracking/refresh`)).toHaveLength(1);
    expect(toast.success).toHaveBeenCalledWith('Tracking refreshed: YT2412345678901234');
  });

  it('says why a tracking refresh failed', async () => {
    mockApi({
      [`GET cj/orders/${orderId}`]: () => ({ body: makeSupplierOrder({ status: 'sent', cjOrderId: 'CJ2400000007' }) }),
      [`POST cj/orders/${orderId}/tracking/refresh`]: () => ({ status: 503, body: { message: 'CJ Dropshipping cannot be reached right now' } }),
    });
    renderPanel();
    await userEvent.click(await screen.findByRole('button', { name: 'Refresh tracking' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('CJ Dropshipping cannot be reached right now'));
  });
});
