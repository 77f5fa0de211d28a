import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { formatClockTime, formatDateTime } from '../../../lib/format';
import { admin, customer, mockApi } from '../../../test/render';
import { makeCartItem, makeState, renderWithProviders } from '../../../test/cart-utils';
import type { Order } from '@shop/contracts';
import { makeOrder } from '../test-data';
import OrderPage from './OrderPage';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));

const id = 'cccccccccccccccccccccccc';
const route = { route: `/order/${id}`, path: '/order/:id' };
const demoConfig = { clientId: 'demo', mode: 'demo', currency: 'USD', demoPaymentsAllowed: true };

beforeEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

describe('OrderPage', () => {
  it("shows 'Order Not Found' for a 404", async () => {
    mockApi({ [`GET orders/${id}`]: () => ({ status: 404, body: { message: 'Order Not Found' } }) });
    renderWithProviders(<OrderPage />, { ...route, state: makeState({ userInfo: customer }) });
    expect(await screen.findByRole('alert')).toHaveTextContent('Order Not Found');
  });

  it('shows the amounts with 2 decimals and statuses', async () => {
    const paidAt = '2025-03-10T14:05:00.000Z';
    mockApi({ [`GET orders/${id}`]: () => ({ body: makeOrder({ isPaid: true, paidAt, itemsPrice: 18, totalPrice: 18 }) }) });
    renderWithProviders(<OrderPage />, { ...route, state: makeState({ userInfo: customer }) });
    expect(await screen.findByText(`Paid at ${formatDateTime(paidAt)}`)).toBeInTheDocument();
    expect(screen.getByText('Not Delivered')).toBeInTheDocument();
    expect(screen.getAllByText('$18.00').length).toBeGreaterThanOrEqual(2);
    expect(screen.getAllByText('$0.00')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Pay Now' })).not.toBeInTheDocument();
  });

  it('shows the discount code and what it took off, between the items and the total', async () => {
    mockApi({ [`GET orders/${id}`]: () => ({ body: makeOrder({ itemsPrice: 48, discountCode: 'SPRING10', discountPrice: 4.8, totalPrice: 43.2 }) }) });
    renderWithProviders(<OrderPage />, { ...route, state: makeState({ userInfo: customer }) });
    expect(await screen.findByTestId('discount-code')).toHaveTextContent('SPRING10');
    expect(screen.getByTestId('discount-amount')).toHaveTextContent('-$4.80');
    expect(screen.getByText('$43.20')).toBeInTheDocument();
  });

  it('an order without a code has no discount line', async () => {
    mockApi({ [`GET orders/${id}`]: () => ({ body: makeOrder({ itemsPrice: 18, totalPrice: 18 }) }) });
    renderWithProviders(<OrderPage />, { ...route, state: makeState({ userInfo: customer }) });
    expect(await screen.findByText('Order Summary')).toBeInTheDocument();
    expect(screen.queryByTestId('discount-code')).toBeNull();
  });

  it('the owner pays with the demo provider; the cart is cleared', async () => {
    const api = mockApi({
      [`GET orders/${id}`]: () => ({ body: makeOrder() }),
      'GET keys/paypal': () => ({ body: demoConfig }),
      [`PUT orders/${id}/pay`]: () => ({ body: { message: 'Order is paid successfully', order: makeOrder({ isPaid: true, paidAt: '2025-03-10T14:05:00.000Z' }) } }),
      'GET cart': () => ({ body: { cartItems: [] } }),
    });
    const { probe } = renderWithProviders(<OrderPage />, { ...route, state: makeState({ userInfo: customer, cartItems: [makeCartItem()] }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Pay Now' }));
    expect(await screen.findByText('Demo payment: no money is taken')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Pay with demo PayPal — no money is taken' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Order is paid successfully'));
    expect(api.callsTo(`PUT orders/${id}/pay`)[0]?.body).toEqual({ demo: true });
    expect(probe.state.cart.cartItems).toEqual([]);
    expect(await screen.findByText(/^Paid at /)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pay Now' })).not.toBeInTheDocument();
  });

  it("an unpaid order tells the customer 'Pay within 30 minutes — until HH:MM'", async () => {
    mockApi({ [`GET orders/${id}`]: () => ({ body: makeOrder() }) });
    renderWithProviders(<OrderPage />, { ...route, state: makeState({ userInfo: customer }) });
    expect(await screen.findByText(`Pay within 30 minutes — until ${formatClockTime('2025-03-09T19:15:00.000Z')}`)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pay Now' })).toBeInTheDocument();
  });

  it('an expired order tells the customer and orders again: the cart is refilled by the server and the shopper goes to /cart', async () => {
    const refilled = { cartItems: [makeCartItem({ _id: '111111111111111111111111', name: 'Blue Mug', quantity: 2 })] };
    const api = mockApi({
      [`GET orders/${id}`]: () => ({ body: makeOrder({ isExpired: true }) }),
      [`POST orders/${id}/reorder`]: () => ({ body: refilled }),
      'GET cart': () => ({ body: refilled }),
    });
    const { probe } = renderWithProviders(<OrderPage />, { ...route, state: makeState({ userInfo: customer }) });
    expect(await screen.findByText(`This order expired at ${formatClockTime('2025-03-09T19:15:00.000Z')} because it was not paid in time. Its items went back on sale.`)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pay Now' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Order again' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/cart'));
    expect(api.callsTo(`POST orders/${id}/reorder`)).toHaveLength(1);
    expect(probe.state.cart.cartItems.map((i) => [i._id, i.quantity])).toEqual([['111111111111111111111111', 2]]);
  });

  it('an admin sees admin wording for an expired or awaiting order, never the customer prompt', async () => {
    mockApi({ [`GET orders/${id}`]: () => ({ body: makeOrder({ isExpired: true }) }) });
    const first = renderWithProviders(<OrderPage />, { ...route, state: makeState({ userInfo: admin }) });
    expect(await screen.findByText(/^Expired unpaid at .*: the customer did not pay in time/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Order again' })).toBeNull();
    expect(screen.queryByText(/This order expired at/)).toBeNull();
    first.unmount();
    mockApi({ [`GET orders/${id}`]: () => ({ body: makeOrder() }) });
    renderWithProviders(<OrderPage />, { ...route, state: makeState({ userInfo: admin }) });
    expect(await screen.findByText(`Awaiting payment: the order expires at ${formatClockTime('2025-03-09T19:15:00.000Z')} if the customer does not pay.`)).toBeInTheDocument();
    expect(screen.queryByText(/Pay within/)).toBeNull();
  });

  it('admins get Test Pay Order, Deliver Order (after confirming) and Mark as Not Delivered', async () => {
    let order = makeOrder();
    const { calls } = mockApi({
      [`GET orders/${id}`]: () => ({ body: order }),
      [`PUT orders/${id}/pay`]: () => {
        order = { ...order, isPaid: true, paidAt: '2025-03-10T14:05:00.000Z' };
        return { body: { message: 'Order is paid successfully', order } };
      },
      [`PUT orders/${id}/deliver`]: () => {
        order = { ...order, isDelivered: true, deliveredAt: '2025-03-11T09:00:00.000Z' };
        return { body: { message: 'Order is delivered', order } };
      },
      [`PUT orders/${id}/undeliver`]: () => {
        order = { ...order, isDelivered: false, deliveredAt: null };
        return { body: { message: 'Order status updated to not delivered', order } };
      },
    });
    renderWithProviders(<OrderPage />, { ...route, state: makeState({ userInfo: admin }) });
    await screen.findByText('Not Paid');
    expect(screen.queryByRole('button', { name: 'Pay Now' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Deliver Order' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Test Pay Order' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Order is paid'));
    await userEvent.click(await screen.findByRole('button', { name: 'Deliver Order' }));
    // It asks first: Cancel sends nothing.
    const dialog = await screen.findByRole('dialog', { name: 'Deliver Order' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(toast.success).not.toHaveBeenCalledWith('Order is delivered');
    await userEvent.click(screen.getByRole('button', { name: 'Deliver Order' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Deliver Order' })).getByRole('button', { name: 'Deliver Order' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Order is delivered'));
    expect(await screen.findByText(/^Delivered at /)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Mark as Not Delivered' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Order status updated to not delivered'));
    expect(await screen.findByRole('button', { name: 'Deliver Order' })).toBeInTheDocument();
    // An order without supplier products never asks for a supplier order.
    expect(calls.filter((c) => c.path.startsWith('cj/orders'))).toEqual([]);
  });

  it('an order with supplier lines shows its supplier order to an admin', async () => {
    const { callsTo } = mockApi({
      [`GET orders/${id}`]: () => ({ body: { ...makeOrder(), isPaid: true, paidAt: '2025-03-10T14:05:00.000Z', hasSupplierLines: true } }),
      [`GET cj/orders/${id}`]: () => ({ status: 404, body: { message: 'Not Found' } }),
    });
    renderWithProviders(<OrderPage />, { ...route, state: makeState({ userInfo: admin }) });
    await waitFor(() => expect(callsTo(`GET cj/orders/${id}`)).toHaveLength(1));
  });

  describe('a parcel sent by the shop\'s partner, in the shop\'s words (issue 34.4)', () => {
    const paidAt = '2025-03-10T14:05:00.000Z';
    const supplierOrder = (shipment: NonNullable<Order['shipment']>) => {
      const line = { _id: '111111111111111111111111', name: 'Trail Backpack', slug: 'trail-backpack', image: '/b.jpg', price: 30, quantity: 1,
        product: '111111111111111111111111', variantId: 'dddddddddddddddddddddddd', variantName: 'Black', tracking: shipment };
      return makeOrder({ isPaid: true, paidAt, status: 'paid', orderItems: [line], shipment, shippingStatus: shipment.trackingNumber ? 'Shipped' : null });
    };
    // What a customer answer carries (the server maps CJ's states and service names before they leave it).
    const shipped = { status: 'Shipped', trackingNumber: 'CJPKL7012345678', carrier: 'Standard shipping', shippedAt: paidAt, deliveredAt: null,
      checkedAt: paidAt, trackingUrl: 'https://t.17track.net/en#nums=CJPKL7012345678' };
    const supplierWords = /\bCJ\b|CJPacket|supplier|unshipped/i;

    it('paid, not yet shipped: Processing, not "Not Delivered"', async () => {
      mockApi({ [`GET orders/${id}`]: () => ({ body: supplierOrder({ ...shipped, status: 'Processing', trackingNumber: null, carrier: null, shippedAt: null, trackingUrl: null }) }) });
      renderWithProviders(<OrderPage />, { ...route, state: makeState({ userInfo: customer }) });
      expect(await screen.findByText(`Paid at ${formatDateTime(paidAt)}`)).toBeInTheDocument();
      expect(screen.queryByText('Not Delivered')).not.toBeInTheDocument();
      expect(screen.getAllByText('Processing').length).toBeGreaterThanOrEqual(1);
      expect(document.body.textContent).not.toMatch(supplierWords);
    });

    it('shipped: the carrier and a tracking link, no red "Not Delivered"; even raw supplier words are never shown', async () => {
      // An older server answer with CJ's own words still reads in the shop's words.
      mockApi({ [`GET orders/${id}`]: () => ({ body: supplierOrder({ ...shipped, status: 'UNSHIPPED', carrier: 'CJPacket Ordinary', trackingUrl: undefined }) }) });
      renderWithProviders(<OrderPage />, { ...route, state: makeState({ userInfo: customer }) });
      await screen.findByTestId('line-tracking');
      const box = screen.getAllByRole('status').find((el) => el.textContent?.startsWith('Shipped with Standard shipping: tracking number CJPKL7012345678'))!;
      expect(box).toBeDefined();
      expect(screen.queryByText('Not Delivered')).not.toBeInTheDocument();
      const links = screen.getAllByRole('link', { name: /CJPKL7012345678.*track the parcel/ });
      expect(links[0]).toHaveAttribute('href', 'https://t.17track.net/en#nums=CJPKL7012345678');
      expect(links[0]).toHaveAttribute('target', '_blank');
      expect(within(box).getByRole('link')).toBeInTheDocument();
      expect(screen.getByTestId('line-tracking')).toHaveTextContent('Shipped with Standard shipping: tracking number CJPKL7012345678');
      // Only the tracking number (a carrier's code) may hold those letters; the words around it never do.
      expect(document.body.textContent!.replaceAll('CJPKL7012345678', '')).not.toMatch(supplierWords);
    });

    it('delivered by the partner: Delivered, in green', async () => {
      mockApi({ [`GET orders/${id}`]: () => ({ body: supplierOrder({ ...shipped, status: 'Delivered', deliveredAt: '2025-03-20T10:00:00.000Z' }) }) });
      renderWithProviders(<OrderPage />, { ...route, state: makeState({ userInfo: customer }) });
      expect(await screen.findByText(`Delivered at ${formatDateTime('2025-03-20T10:00:00.000Z')}`)).toBeInTheDocument();
      expect(screen.queryByText('Not Delivered')).not.toBeInTheDocument();
      expect(screen.getByTestId('line-tracking')).toHaveTextContent('Delivered with Standard shipping');
    });
  });

  it("shows 'Error in connecting to PayPal' when the payment config cannot load", async () => {
    mockApi({ [`GET orders/${id}`]: () => ({ body: makeOrder() }), 'GET keys/paypal': () => ({ status: 500, body: { message: 'x' } }) });
    renderWithProviders(<OrderPage />, { ...route, state: makeState({ userInfo: customer }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Pay Now' }));
    expect(await screen.findByText('Error in connecting to PayPal')).toBeInTheDocument();
  });
});
