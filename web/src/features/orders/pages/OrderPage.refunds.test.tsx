import type { OrderEvent, Refund } from '@shop/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { admin, customer, mockApi } from '../../../test/render';
import { makeState, renderWithProviders } from '../../../test/cart-utils';
import { makeOrder, makePaidOrder, MUG_LINE, TEE_LINE } from '../test-data';
import OrderPage from './OrderPage';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));

const id = 'cccccccccccccccccccccccc';
const route = { route: `/order/${id}`, path: '/order/:id' };
const asAdmin = { ...route, state: makeState({ userInfo: admin }) };
const asCustomer = { ...route, state: makeState({ userInfo: customer }) };

const refundOf = (overrides: Partial<Refund> = {}): Refund => ({
  _id: 'dddddddddddddddddddddddd', amount: 9, extraAmount: 0, reason: 'Broken in transit', createdAt: '2025-03-10T10:00:00.000Z',
  lines: [{ orderItemId: MUG_LINE, name: 'Blue Mug', quantity: 1, amount: 9, restock: true }], provider: 'demo', status: 'succeeded',
  providerStatus: null, isCancellation: false, ...overrides,
});

let eventCount = 0;
const event = (e: Partial<OrderEvent> & Pick<OrderEvent, 'type' | 'message'>): OrderEvent =>
  ({ _id: String(++eventCount).padStart(24, 'f'), createdAt: '2025-03-09T18:45:00.000Z', internal: false, ...e });

const dialogNamed = (name: string) => screen.findByRole('dialog', { name });

beforeEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

describe('OrderPage: the order number and status', () => {
  it('names the order by its number and shows its status', async () => {
    const paid = makePaidOrder();
    const lines = paid.orderItems.map((i) => (i._id === MUG_LINE ? { ...i, refundedQuantity: 1 } : i));
    mockApi({ [`GET orders/${id}`]: () => ({ body: makePaidOrder({ number: 1042, status: 'partially_refunded', refundedAmount: 9, orderItems: lines }) }) });
    renderWithProviders(<OrderPage />, asCustomer);
    expect(await screen.findByRole('heading', { level: 1, name: 'Order #1042' })).toBeInTheDocument();
    expect(screen.getByTestId('order-status')).toHaveTextContent('Partially refunded');
    expect(screen.getByTestId('refunded-amount')).toHaveTextContent('−$9.00');
    expect(document.title).toBe('Order #1042');
    // The line says what of it was refunded.
    expect(screen.getAllByTestId('line-refunded').map((el) => el.textContent)).toEqual(['1 refunded']);
  });
});

describe('OrderPage: the Refund dialog (administrators)', () => {
  it('restocks unshipped lines by default, limits units and money, requires a reason, and sends an Idempotency-Key', async () => {
    const order = makePaidOrder();
    const api = mockApi({
      [`GET orders/${id}`]: () => ({ body: order }),
      [`POST orders/${id}/refunds`]: () => {
        const refund = refundOf();
        return { status: 201, body: { refund, order: { ...order, status: 'partially_refunded', refundedAmount: 9, refunds: [refund] } } };
      },
    });
    renderWithProviders(<OrderPage />, asAdmin);
    await userEvent.click(await screen.findByRole('button', { name: 'Refund' }));
    const dialog = await dialogNamed('Refund order #1001');
    // Restock: on for the mug (not shipped), off for the tee (shipped by the supplier).
    expect(within(dialog).getByRole('checkbox', { name: 'Restock Blue Mug' })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: 'Restock Red Tee' })).not.toBeChecked();
    expect(within(dialog).getByTestId('refund-total')).toHaveTextContent('$0.00');

    const mugQty = within(dialog).getByLabelText('Units of Blue Mug to refund (0 to 2)');
    await userEvent.clear(mugQty);
    await userEvent.type(mugQty, '3');
    expect(within(dialog).getByText('Quantity must be a whole number from 0 to 2')).toBeInTheDocument();
    await userEvent.clear(mugQty);
    await userEvent.type(mugQty, '1');
    expect(within(dialog).getByTestId('refund-total')).toHaveTextContent('$9.00');

    // More than is left ($43): said at once, and the refund cannot be sent.
    const amount = within(dialog).getByLabelText('Extra amount (shipping, goodwill), USD');
    await userEvent.type(amount, '40');
    expect(within(dialog).getByTestId('refund-total')).toHaveTextContent('$49.00');
    expect(within(dialog).getByTestId('refund-total-error')).toHaveTextContent('That is more than is left to refund on this order: 43.00 USD left');
    expect(within(dialog).getByRole('button', { name: 'Refund $49.00' })).toBeDisabled();
    await userEvent.clear(amount);

    // No reason: nothing is sent.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Refund $9.00' }));
    expect(within(dialog).getByText('A reason is required')).toBeInTheDocument();
    expect(api.callsTo(`POST orders/${id}/refunds`)).toHaveLength(0);

    await userEvent.type(within(dialog).getByLabelText('Reason (the customer reads it)'), 'Broken in transit');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Refund $9.00' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Refund recorded: $9.00 for order #1001'));
    const [call] = api.callsTo(`POST orders/${id}/refunds`);
    expect(call?.body).toEqual({ lines: [{ orderItemId: MUG_LINE, quantity: 1, restock: true }], reason: 'Broken in transit' });
    expect(call?.headers?.['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByTestId('order-status')).toHaveTextContent('Partially refunded');
    const refunds = screen.getAllByTestId('refund');
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toHaveTextContent('1 × Blue Mug: $9.00 (restocked)');
    expect(refunds[0]).toHaveTextContent('Reason: Broken in transit');
  });

  it("shows the server's refusal in the dialog; the same request again keeps its key, a changed one gets a new key", async () => {
    const order = makePaidOrder({ paymentResult: { provider: 'paypal', id: 'CAPTURE-1', status: 'COMPLETED', emailAddress: null, updateTime: '2025-03-09T18:50:00.000Z' } });
    const refusal = 'PayPal refused the refund: the PayPal payment is too old to be refunded (send the money as a new payment instead) (REFUND_TIME_LIMIT_EXCEEDED). Nothing was changed.';
    const api = mockApi({
      [`GET orders/${id}`]: () => ({ body: order }),
      [`POST orders/${id}/refunds`]: () => ({ status: 400, body: { message: refusal, code: 'REFUND_REFUSED' } }),
    });
    renderWithProviders(<OrderPage />, asAdmin);
    await userEvent.click(await screen.findByRole('button', { name: 'Refund' }));
    const dialog = await dialogNamed('Refund order #1001');
    expect(dialog).toHaveTextContent('The money goes back through PayPal.');
    // Refund everything left: both lines in full and the shipping.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Refund everything left' }));
    expect(within(dialog).getByTestId('refund-total')).toHaveTextContent('$43.00');
    await userEvent.type(within(dialog).getByLabelText('Reason (the customer reads it)'), 'Customer changed their mind');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Refund $43.00' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(refusal);
    expect(toast.success).not.toHaveBeenCalled();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Refund $43.00' }));
    await waitFor(() => expect(api.callsTo(`POST orders/${id}/refunds`)).toHaveLength(2));
    const [first, second] = api.callsTo(`POST orders/${id}/refunds`);
    expect(first?.body).toEqual({
      lines: [{ orderItemId: MUG_LINE, quantity: 2, restock: true }, { orderItemId: TEE_LINE, quantity: 1, restock: false }],
      amount: 5, reason: 'Customer changed their mind',
    });
    expect(second?.headers?.['idempotency-key']).toBe(first?.headers?.['idempotency-key']);

    await userEvent.clear(within(dialog).getByLabelText('Extra amount (shipping, goodwill), USD'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Refund $38.00' }));
    await waitFor(() => expect(api.callsTo(`POST orders/${id}/refunds`)).toHaveLength(3));
    expect(api.callsTo(`POST orders/${id}/refunds`)[2]?.headers?.['idempotency-key']).not.toBe(first?.headers?.['idempotency-key']);
    expect(screen.getByRole('dialog', { name: 'Refund order #1001' })).toBeInTheDocument();
  });

  it("opens the dialog when the admin list's Refund links here (?refund=1), and closing it drops the parameter", async () => {
    mockApi({ [`GET orders/${id}`]: () => ({ body: makePaidOrder() }) });
    renderWithProviders(<OrderPage />, { ...asAdmin, route: `/order/${id}?refund=1` });
    const dialog = await dialogNamed('Refund order #1001');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByTestId('location')).toHaveTextContent(new RegExp(`^/order/${id}$`));
  });

  it('offers no Refund on an order refunded in full, nor to a customer', async () => {
    mockApi({ [`GET orders/${id}`]: () => ({ body: makePaidOrder({ status: 'refunded', refundedAmount: 43 }) }) });
    const first = renderWithProviders(<OrderPage />, asAdmin);
    expect(await screen.findByRole('heading', { name: 'Order #1001' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Refund' })).toBeNull();
    first.unmount();
    mockApi({ [`GET orders/${id}`]: () => ({ body: makePaidOrder() }) });
    renderWithProviders(<OrderPage />, asCustomer);
    expect(await screen.findByRole('heading', { name: 'Order #1001' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Refund' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel order' })).toBeNull();
  });
});

describe('OrderPage: Cancel order', () => {
  it('an administrator cancels a paid order after confirming it is refunded in full; a refusal (supplier shipped) is shown', async () => {
    const order = makePaidOrder({ hasSupplierLines: true });
    const shipped = 'The supplier has already shipped this order (CJ status SHIPPED, tracking number CJ123): refund it instead.';
    let refuse = true;
    const api = mockApi({
      [`GET orders/${id}`]: () => ({ body: order }),
      [`GET cj/orders/${id}`]: () => ({ status: 404, body: { message: 'Not Found' } }),
      [`POST orders/${id}/cancel`]: () => (refuse
        ? { status: 409, body: { message: shipped, code: 'SUPPLIER_SHIPPED' } }
        : { body: { order: { ...order, status: 'cancelled', cancelledAt: '2025-03-10T11:00:00.000Z', refundedAmount: 43 } } }),
    });
    renderWithProviders(<OrderPage />, asAdmin);
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel order' }));
    let dialog = await dialogNamed('Cancel order #1001');
    expect(within(dialog).getByTestId('cancel-effect')).toHaveTextContent('refunded in full: $43.00 goes back to the customer');
    // Keep order sends nothing.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep order' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo(`POST orders/${id}/cancel`)).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Cancel order' }));
    dialog = await dialogNamed('Cancel order #1001');
    await userEvent.type(within(dialog).getByLabelText('Reason (optional)'), 'Double order');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(shipped);
    refuse = false;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Order #1001 is cancelled'));
    const calls = api.callsTo(`POST orders/${id}/cancel`);
    expect(calls.map((c) => c.body)).toEqual([{ reason: 'Double order' }, { reason: 'Double order' }]);
    expect(calls[0]?.headers?.['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);
    expect(calls[1]?.headers?.['idempotency-key']).toBe(calls[0]?.headers?.['idempotency-key']);
    expect(await screen.findByTestId('order-status')).toHaveTextContent('Cancelled');
    expect(screen.queryByRole('button', { name: 'Cancel order' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Refund' })).toBeNull();
  });

  it('a customer cancels their own unpaid order after confirming; a paid one offers no cancel', async () => {
    const order = makeOrder();
    const api = mockApi({
      [`GET orders/${id}`]: () => ({ body: order }),
      [`POST orders/${id}/cancel`]: () => ({ body: { order: { ...order, status: 'cancelled', cancelledAt: '2025-03-09T18:50:00.000Z' } } }),
    });
    const first = renderWithProviders(<OrderPage />, asCustomer);
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel order' }));
    const dialog = await dialogNamed('Cancel order #1001');
    expect(within(dialog).getByTestId('cancel-effect')).toHaveTextContent('Nothing was charged');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Order #1001 is cancelled'));
    expect(api.callsTo(`POST orders/${id}/cancel`).map((c) => c.body)).toEqual([{}]);
    expect(await screen.findByText(/^Cancelled at /)).toBeInTheDocument();
    expect(screen.getByTestId('order-status')).toHaveTextContent('Cancelled');
    // A cancelled order can no longer be paid.
    expect(screen.queryByRole('button', { name: 'Pay Now' })).toBeNull();
    expect(screen.queryByText(/Pay within/)).toBeNull();
    first.unmount();

    mockApi({ [`GET orders/${id}`]: () => ({ body: makePaidOrder() }) });
    const second = renderWithProviders(<OrderPage />, asCustomer);
    expect(await screen.findByRole('heading', { name: 'Order #1001' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel order' })).toBeNull();
    second.unmount();

    // Nor an expired one: there is nothing left to cancel.
    mockApi({ [`GET orders/${id}`]: () => ({ body: makeOrder({ isExpired: true, status: 'expired' }) }) });
    renderWithProviders(<OrderPage />, asCustomer);
    expect(await screen.findByTestId('order-expired')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel order' })).toBeNull();
  });
});

describe('OrderPage: the timeline', () => {
  const events = [
    event({ type: 'placed', message: 'Order placed', createdAt: '2025-03-09T18:45:00.000Z' }),
    event({ type: 'paid', message: 'Payment received', createdAt: '2025-03-09T18:50:00.000Z' }),
    event({ type: 'shipped', message: 'Shipped, tracking number CJ123', trackingNumber: 'CJ123', createdAt: '2025-03-10T08:00:00.000Z' }),
    event({ type: 'refunded', message: 'Refunded $9.00', amount: 9, createdAt: '2025-03-10T10:00:00.000Z' }),
  ];

  it("a customer's page lists the events it gets, oldest first, with dates and a tracking link, and no note box", async () => {
    mockApi({ [`GET orders/${id}`]: () => ({ body: makePaidOrder({ events, status: 'partially_refunded', refundedAmount: 9, refunds: [refundOf()] }) }) });
    renderWithProviders(<OrderPage />, asCustomer);
    const items = await screen.findAllByTestId('timeline-event');
    expect(items.map((i) => i.getAttribute('data-type'))).toEqual(['placed', 'paid', 'shipped', 'refunded']);
    expect(items[3]).toHaveTextContent('Refunded $9.00');
    expect(within(items[0]!).getByText((_, el) => el?.tagName === 'TIME')).toHaveAttribute('datetime', '2025-03-09T18:45:00.000Z');
    expect(within(items[2]!).getByRole('link', { name: 'Track parcel CJ123' })).toHaveAttribute('href', 'https://t.17track.net/en#nums=CJ123');
    expect(screen.queryByLabelText('Internal note')).toBeNull();
    // The customer's refund: amount, line and reason, without back-office wording.
    const [refund] = screen.getAllByTestId('refund');
    expect(refund).toHaveTextContent('1 × Blue Mug: $9.00');
    expect(refund).not.toHaveTextContent('restocked');
  });

  it('an administrator sees internal notes with their author and adds one', async () => {
    const note = event({ type: 'note', message: 'Customer called about the colour', internal: true, author: { _id: admin._id, name: 'Admin' }, createdAt: '2025-03-10T12:00:00.000Z' });
    let order = makePaidOrder({ events: [...events, event({ type: 'forwarded', message: 'Forwarded to the supplier (CJ order CJ-9)', internal: true })] });
    const api = mockApi({
      [`GET orders/${id}`]: () => ({ body: order }),
      [`POST orders/${id}/notes`]: () => {
        order = { ...order, events: [...(order.events ?? []), note] };
        return { status: 201, body: { event: note, order } };
      },
    });
    renderWithProviders(<OrderPage />, asAdmin);
    const box = await screen.findByLabelText('Internal note');
    // An empty note is not sent.
    await userEvent.click(screen.getByRole('button', { name: 'Add note' }));
    expect(screen.getByText('The note is empty')).toBeInTheDocument();
    await userEvent.type(box, 'Customer called about the colour');
    await userEvent.click(screen.getByRole('button', { name: 'Add note' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Note added'));
    expect(api.callsTo(`POST orders/${id}/notes`).map((c) => c.body)).toEqual([{ text: 'Customer called about the colour' }]);
    const items = await screen.findAllByTestId('timeline-event');
    const last = items[items.length - 1]!;
    expect(last).toHaveTextContent('Internal note');
    expect(last).toHaveTextContent('Customer called about the colour');
    expect(last).toHaveTextContent('by Admin');
    expect(items.find((i) => i.getAttribute('data-type') === 'forwarded')).toHaveTextContent('Not shown to the customer');
    expect(box).toHaveValue('');
  });
});
