import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { customer, mockApi } from '../../../test/render';
import { makeCartItem, makeState, renderWithProviders } from '../../../test/cart-utils';
import CartPage from './CartPage';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));

const mug = makeCartItem({ _id: '111111111111111111111111', name: 'Blue Mug', price: 9, quantity: 1, countInStock: 5 });
const lamp = makeCartItem({ _id: '222222222222222222222222', name: 'Desk Lamp', slug: 'desk-lamp', price: 24.5, quantity: 2, countInStock: 2 });

beforeEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

describe('CartPage (guest)', () => {
  it('shows the empty message with a link to shop', () => {
    renderWithProviders(<CartPage />, { route: '/cart' });
    expect(screen.getByText(/Cart is empty\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go Shopping' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('button', { name: 'Proceed to Checkout' })).toBeDisabled();
  });

  it("shows the shop's shipping promise under the subtotal, and how far free shipping is", async () => {
    const rates = { flatRate: 4.99, freeOver: 80, countryRates: [], summary: 'Shipping is $4.99 per order, free on orders over $80.00.' };
    mockApi({ 'GET shipping/rates': () => ({ body: rates }) });
    renderWithProviders(<CartPage />, { route: '/cart', state: makeState({ cartItems: [mug, lamp] }) });
    const line = await screen.findByTestId('cart-shipping');
    expect(line).toHaveTextContent('Shipping is $4.99 per order, free on orders over $80.00.');
    expect(line).toHaveTextContent('Add $22.00 more for free shipping.');
  });

  it('disables minus at 1 and plus at stock, and shows the subtotal', () => {
    renderWithProviders(<CartPage />, { route: '/cart', state: makeState({ cartItems: [mug, lamp] }) });
    expect(screen.getByRole('button', { name: 'Decrease quantity of Blue Mug' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Increase quantity of Blue Mug' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Decrease quantity of Desk Lamp' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Increase quantity of Desk Lamp' })).toBeDisabled();
    expect(screen.getByTestId('cart-subtotal')).toHaveTextContent('Subtotal (3 items) : $58.00');
    expect(screen.getByRole('link', { name: 'Blue Mug' })).toHaveAttribute('href', '/product/blue-mug');
  });

  it('shows a line total per cart line (quantity × unit price)', async () => {
    renderWithProviders(<CartPage />, { route: '/cart', state: makeState({ cartItems: [mug, lamp] }) });
    expect(screen.getAllByTestId('line-total').map((el) => el.textContent)).toEqual(['$9.00', '$49.00']);
    expect(screen.getByText('2 × $24.50')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Increase quantity of Blue Mug' }));
    expect(screen.getByLabelText('Line total of Blue Mug')).toHaveTextContent('$18.00');
  });

  it('changes quantities locally and keeps the guest cart in localStorage', async () => {
    const { probe } = renderWithProviders(<CartPage />, { route: '/cart', state: makeState({ cartItems: [mug] }) });
    await userEvent.click(screen.getByRole('button', { name: 'Increase quantity of Blue Mug' }));
    expect(screen.getByLabelText('Quantity of Blue Mug')).toHaveTextContent('2');
    expect(screen.getByTestId('cart-subtotal')).toHaveTextContent('Subtotal (2 items) : $18.00');
    expect(screen.getByRole('button', { name: 'Decrease quantity of Blue Mug' })).toBeEnabled();
    expect(probe.state.cart.cartItems[0]?.quantity).toBe(2);
    await waitFor(() => expect(JSON.parse(localStorage.getItem('cartItems') ?? '[]')[0].quantity).toBe(2));
  });

  it('removes an item with a success toast', async () => {
    renderWithProviders(<CartPage />, { route: '/cart', state: makeState({ cartItems: [mug, lamp] }) });
    await userEvent.click(screen.getByRole('button', { name: 'Remove Blue Mug' }));
    expect(screen.queryByText('Blue Mug')).not.toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledWith('Item removed from cart');
    expect(screen.getByTestId('cart-subtotal')).toHaveTextContent('Subtotal (2 items) : $49.00');
  });

  it('Proceed to Checkout goes to sign-in with the shipping redirect', async () => {
    renderWithProviders(<CartPage />, { route: '/cart', state: makeState({ cartItems: [mug] }) });
    await userEvent.click(screen.getByRole('button', { name: 'Proceed to Checkout' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/signin?redirect=/shipping');
  });
});

describe('CartPage (signed in)', () => {
  it('shows the server cart and syncs a quantity change', async () => {
    const api = mockApi({
      'GET cart': () => ({ body: { cartItems: [mug] } }),
      [`PUT cart/items/${mug._id}`]: (body) => ({ body: { cartItems: [{ ...mug, quantity: (body as { quantity: number }).quantity }] } }),
    });
    renderWithProviders(<CartPage />, { route: '/cart', state: makeState({ userInfo: customer, cartItems: [mug] }) });
    await userEvent.click(screen.getByRole('button', { name: 'Increase quantity of Blue Mug' }));
    await waitFor(() => expect(api.callsTo(`PUT cart/items/${mug._id}`)).toEqual([{ method: 'PUT', path: `cart/items/${mug._id}`, body: { quantity: 2 } }]));
    expect(screen.getByLabelText('Quantity of Blue Mug')).toHaveTextContent('2');
  });

  it('a failed sync shows the message and reloads the server cart', async () => {
    const api = mockApi({
      'GET cart': () => ({ body: { cartItems: [mug] } }),
      [`PUT cart/items/${mug._id}`]: () => ({ status: 500, body: { message: 'Internal Server Error' } }),
    });
    renderWithProviders(<CartPage />, { route: '/cart', state: makeState({ userInfo: customer, cartItems: [mug] }) });
    await waitFor(() => expect(api.callsTo('GET cart')).toHaveLength(1));
    await userEvent.click(screen.getByRole('button', { name: 'Increase quantity of Blue Mug' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to update item quantity'));
    await waitFor(() => expect(api.callsTo('GET cart')).toHaveLength(2));
  });

  it('a failed removal shows the message', async () => {
    mockApi({
      'GET cart': () => ({ body: { cartItems: [mug] } }),
      [`DELETE cart/items/${mug._id}`]: () => ({ status: 500, body: { message: 'boom' } }),
    });
    renderWithProviders(<CartPage />, { route: '/cart', state: makeState({ userInfo: customer, cartItems: [mug] }) });
    await userEvent.click(screen.getByRole('button', { name: 'Remove Blue Mug' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Could not remove item from cart'));
    expect(toast.success).not.toHaveBeenCalled();
    const list = await screen.findByRole('list', { name: 'Cart items' });
    expect(within(list).getByText('Blue Mug')).toBeInTheDocument();
  });
});
