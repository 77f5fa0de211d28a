import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { customer, mockApi } from '../../../test/render';
import { makeCartItem, makeState, renderWithProviders } from '../../../test/cart-utils';
import CartPage from '../pages/CartPage';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));

const mug = makeCartItem({ _id: '111111111111111111111111', name: 'Blue Mug', price: 10, quantity: 3, countInStock: 5 });
const applied = { code: 'SAVE10', amount: 3, message: 'Discount applied: 10% off', isValid: true, kind: 'percent' as const };

beforeEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

describe('the discount code box in the cart', () => {
  it('applies a code: the server message, the discount line and the total after it; then removes it', async () => {
    let discount: typeof applied | null = null;
    const api = mockApi({
      'GET cart': () => ({ body: { cartItems: [mug], ...(discount ? { discount } : {}) } }),
      'POST cart/discount': () => { discount = applied; return { body: { cartItems: [mug], discount } }; },
      'DELETE cart/discount': () => { discount = null; return { body: { cartItems: [mug] } }; },
    });
    renderWithProviders(<CartPage />, { route: '/cart', state: makeState({ userInfo: customer, cartItems: [mug] }) });
    const input = await screen.findByLabelText('Discount code');
    expect(screen.getByRole('button', { name: 'Apply' })).toBeDisabled();
    await userEvent.type(input, 'save10');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(api.callsTo('POST cart/discount')).toEqual([{ method: 'POST', path: 'cart/discount', body: { code: 'save10' } }]);
    expect(await screen.findByTestId('discount-message')).toHaveTextContent('Discount applied: 10% off');
    expect(screen.getByTestId('applied-discount-code')).toHaveTextContent('SAVE10');
    expect(screen.getByTestId('cart-discount')).toHaveTextContent('Discount (SAVE10)-$3.00');
    expect(screen.getByTestId('cart-after-discount')).toHaveTextContent('After discount$27.00');

    await userEvent.click(screen.getByRole('button', { name: 'Remove discount code SAVE10' }));
    expect(await screen.findByLabelText('Discount code')).toBeInTheDocument();
    expect(screen.queryByTestId('cart-discount')).toBeNull();
    await waitFor(() => expect(toast.info).toHaveBeenCalledWith('Discount code removed'));
  });

  it("shows the server's reason when a code is refused, beside the field", async () => {
    mockApi({
      'GET cart': () => ({ body: { cartItems: [mug] } }),
      'POST cart/discount': () => ({ status: 400, body: { message: 'This discount code has expired', code: 'DISCOUNT_REFUSED', fieldErrors: { discountCode: 'This discount code has expired' } } }),
    });
    renderWithProviders(<CartPage />, { route: '/cart', state: makeState({ userInfo: customer, cartItems: [mug] }) });
    await userEvent.type(await screen.findByLabelText('Discount code'), 'OLD');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This discount code has expired');
    expect(screen.getByLabelText('Discount code')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByTestId('cart-discount')).toBeNull();
  });

  it('a kept code that no longer applies shows why, with no discount line', async () => {
    const lapsed = { code: 'BIG50', amount: 0, message: 'Spend at least $50.00 to use this discount code', isValid: false, kind: 'fixed' as const };
    mockApi({ 'GET cart': () => ({ body: { cartItems: [mug], discount: lapsed } }) });
    renderWithProviders(<CartPage />, { route: '/cart', state: makeState({ userInfo: customer, cartItems: [mug] }) });
    expect(await screen.findByTestId('discount-message')).toHaveTextContent('Spend at least $50.00 to use this discount code');
    expect(screen.queryByTestId('cart-discount')).toBeNull();
  });

  it('a guest is asked to sign in to use a code', () => {
    renderWithProviders(<CartPage />, { route: '/cart', state: makeState({ cartItems: [mug] }) });
    expect(screen.getByText('Have a discount code? Sign in to use it.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Discount code')).toBeNull();
  });
});
