import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../../test/render';
import { renderWithProviders } from '../../../test/cart-utils';
import PayPalCheckout from './PayPalCheckout';

const script = vi.hoisted(() => ({ status: 'pending' as 'pending' | 'resolved' | 'rejected', dispatch: vi.fn() }));

vi.mock('@paypal/react-paypal-js', () => ({
  DISPATCH_ACTION: { LOADING_STATUS: 'setLoadingStatus' },
  SCRIPT_LOADING_STATE: { PENDING: 'pending' },
  PayPalScriptProvider: ({ children, deferLoading, options }: { children: React.ReactNode; deferLoading: boolean; options: { clientId: string } }) => (
    <div data-testid="provider" data-defer={String(deferLoading)} data-client={options.clientId}>
      {children}
    </div>
  ),
  usePayPalScriptReducer: () => [
    { isInitial: false, isPending: script.status === 'pending', isResolved: script.status === 'resolved', isRejected: script.status === 'rejected' },
    script.dispatch,
  ],
  PayPalButtons: ({ createOrder, onApprove }: { createOrder: () => Promise<string>; onApprove: (data: { orderID: string }) => Promise<void> }) => (
    <button type="button" onClick={async () => onApprove({ orderID: await createOrder() })}>
      PayPal
    </button>
  ),
}));

const orderId = 'cccccccccccccccccccccccc';

beforeEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

describe('PayPalCheckout', () => {
  it('loads the SDK on demand and shows a spinner meanwhile', () => {
    script.status = 'pending';
    renderWithProviders(<PayPalCheckout clientId="client-123" orderId={orderId} onApprove={vi.fn()} />);
    expect(screen.getByTestId('provider')).toHaveAttribute('data-defer', 'true');
    expect(screen.getByTestId('provider')).toHaveAttribute('data-client', 'client-123');
    expect(script.dispatch).toHaveBeenCalledWith({ type: 'setLoadingStatus', value: 'pending' });
    expect(screen.getByRole('status')).toHaveTextContent('Loading PayPal...');
  });

  it("shows 'Error in connecting to PayPal' when the SDK fails to load", () => {
    script.status = 'rejected';
    renderWithProviders(<PayPalCheckout clientId="client-123" orderId={orderId} onApprove={vi.fn()} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Error in connecting to PayPal');
  });

  it('creates the PayPal order on the server and hands the approved id on', async () => {
    script.status = 'resolved';
    const api = mockApi({ [`POST orders/${orderId}/paypal/create`]: () => ({ body: { id: 'PAYPAL-ORDER-1' } }) });
    const onApprove = vi.fn(async () => undefined);
    renderWithProviders(<PayPalCheckout clientId="client-123" orderId={orderId} onApprove={onApprove} />);
    await userEvent.click(screen.getByRole('button', { name: 'PayPal' }));
    await waitFor(() => expect(onApprove).toHaveBeenCalledWith('PAYPAL-ORDER-1'));
    expect(api.callsTo(`POST orders/${orderId}/paypal/create`)).toHaveLength(1);
  });
});
