import type { Product } from '@shop/contracts';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { customer, mockApi } from '../../../test/render';
import { makeCartItem, makeProduct, makeState, renderWithProviders } from '../../../test/cart-utils';
import { useAddToCart } from './use-add-to-cart';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));

function AddButton({ product }: { product: Product }) {
  const { addToCart, isAdding } = useAddToCart();
  return (
    <button type="button" onClick={() => void addToCart(product)} disabled={isAdding}>
      Add to Cart
    </button>
  );
}

const product = makeProduct({ _id: '111111111111111111111111', finalPrice: 9, countInStock: 2 });

beforeEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('useAddToCart', () => {
  it('warns when the product is out of stock and leaves the cart alone', async () => {
    const { probe } = renderWithProviders(<AddButton product={makeProduct({ countInStock: 0 })} />, { route: '/product/blue-mug', path: '/product/:slug' });
    await userEvent.click(screen.getByRole('button', { name: 'Add to Cart' }));
    expect(toast.error).toHaveBeenCalledWith('Sorry. Product is out of stock');
    expect(toast.success).not.toHaveBeenCalled();
    expect(probe.state.cart.cartItems).toEqual([]);
  });

  it('warns when existing quantity + 1 would exceed stock', async () => {
    const state = makeState({ cartItems: [makeCartItem({ _id: product._id, quantity: 2, countInStock: 2 })] });
    const { probe } = renderWithProviders(<AddButton product={product} />, { route: '/product/blue-mug', path: '/product/:slug', state });
    await userEvent.click(screen.getByRole('button', { name: 'Add to Cart' }));
    expect(toast.error).toHaveBeenCalledWith('Sorry. Product is out of stock');
    expect(probe.state.cart.cartItems[0]?.quantity).toBe(2);
  });

  it('adds a guest item locally, toasts for 1 s and goes to /cart after 1 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { probe } = renderWithProviders(<AddButton product={product} />, { route: '/product/blue-mug', path: '/product/:slug' });
    await userEvent.click(screen.getByRole('button', { name: 'Add to Cart' }));
    expect(probe.state.cart.cartItems).toEqual([expect.objectContaining({ _id: product._id, quantity: 1, price: 9, countInStock: 2 })]);
    expect(toast.success).toHaveBeenCalledWith('Product added to the cart', { autoClose: 1000 });
    expect(screen.getByTestId('location')).toHaveTextContent('/product/blue-mug');
    await act(async () => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/cart$/);
  });

  it('makes the quantity existing + 1', async () => {
    const state = makeState({ cartItems: [makeCartItem({ _id: product._id, quantity: 1, countInStock: 2 })] });
    const { probe } = renderWithProviders(<AddButton product={product} />, { route: '/product/blue-mug', path: '/product/:slug', state });
    await userEvent.click(screen.getByRole('button', { name: 'Add to Cart' }));
    expect(probe.state.cart.cartItems).toHaveLength(1);
    expect(probe.state.cart.cartItems[0]?.quantity).toBe(2);
  });

  it('signed in: adds a new product on the server and takes the server cart', async () => {
    const serverItem = { ...makeCartItem({ _id: product._id, quantity: 1, price: 8.5 }), product };
    const api = mockApi({ 'POST cart/items': () => ({ body: { cartItems: [serverItem] } }) });
    const { probe } = renderWithProviders(<AddButton product={product} />, { route: '/product/blue-mug', path: '/product/:slug', state: makeState({ userInfo: customer }) });
    await userEvent.click(screen.getByRole('button', { name: 'Add to Cart' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Product added to the cart', { autoClose: 1000 }));
    expect(api.callsTo('POST cart/items')[0]?.body).toEqual({ productId: product._id, quantity: 1 });
    expect(probe.state.cart.cartItems[0]?.price).toBe(8.5);
  });

  it('signed in: updates a product already in the cart', async () => {
    const api = mockApi({ [`PUT cart/items/${product._id}`]: () => ({ body: { cartItems: [makeCartItem({ _id: product._id, quantity: 2 })] } }) });
    const state = makeState({ userInfo: customer, cartItems: [makeCartItem({ _id: product._id, quantity: 1, countInStock: 2 })] });
    renderWithProviders(<AddButton product={product} />, { route: '/product/blue-mug', path: '/product/:slug', state });
    await userEvent.click(screen.getByRole('button', { name: 'Add to Cart' }));
    await waitFor(() => expect(api.callsTo(`PUT cart/items/${product._id}`)[0]?.body).toEqual({ quantity: 2 }));
    expect(api.callsTo('POST cart/items')).toHaveLength(0);
  });

  it('signed in: a failed sync says so and reloads the server cart', async () => {
    const api = mockApi({
      'POST cart/items': () => ({ status: 500, body: { message: 'Internal Server Error' } }),
      'GET cart': () => ({ body: { cartItems: [] } }),
    });
    const { probe } = renderWithProviders(<AddButton product={product} />, { route: '/product/blue-mug', path: '/product/:slug', state: makeState({ userInfo: customer }) });
    await userEvent.click(screen.getByRole('button', { name: 'Add to Cart' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to update cart on server'));
    expect(toast.success).not.toHaveBeenCalled();
    await waitFor(() => expect(api.callsTo('GET cart')).toHaveLength(1));
    await waitFor(() => expect(probe.state.cart.cartItems).toEqual([]));
  });

  it("signed in: the server's out-of-stock answer is shown as is", async () => {
    mockApi({
      'POST cart/items': () => ({ status: 400, body: { message: 'Sorry. Product is out of stock' } }),
      'GET cart': () => ({ body: { cartItems: [] } }),
    });
    renderWithProviders(<AddButton product={product} />, { route: '/product/blue-mug', path: '/product/:slug', state: makeState({ userInfo: customer }) });
    await userEvent.click(screen.getByRole('button', { name: 'Add to Cart' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Sorry. Product is out of stock'));
  });
});
