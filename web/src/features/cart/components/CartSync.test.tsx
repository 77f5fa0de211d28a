import { act, waitFor } from '@testing-library/react';
import { toast } from 'react-toastify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { customer, mockApi } from '../../../test/render';
import { makeCartItem, makeState, renderWithProviders } from '../../../test/cart-utils';
import { CartSync } from './CartSync';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));

const mug = makeCartItem({ _id: '111111111111111111111111', name: 'Blue Mug', quantity: 2, countInStock: 5 });
const lamp = makeCartItem({ _id: '222222222222222222222222', name: 'Desk Lamp', quantity: 3, countInStock: 3 });

beforeEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

describe('CartSync', () => {
  it('does not call the server for guests', () => {
    const api = mockApi({});
    renderWithProviders(<CartSync />, { state: makeState({ cartItems: [mug] }) });
    expect(api.calls).toEqual([]);
  });

  it('loads the server cart into the store for a signed-in user', async () => {
    const api = mockApi({ 'GET cart': () => ({ body: { cartItems: [lamp] } }) });
    const { probe } = renderWithProviders(<CartSync />, { state: makeState({ userInfo: customer }) });
    await waitFor(() => expect(probe.state.cart.cartItems).toEqual([lamp]));
    expect(api.callsTo('GET cart')).toHaveLength(1);
  });

  it('an empty server cart clears the local one', async () => {
    mockApi({ 'GET cart': () => ({ body: { cartItems: [] } }) });
    const { probe } = renderWithProviders(<CartSync />, { state: makeState({ userInfo: customer, cartItems: [mug] }) });
    await waitFor(() => expect(probe.state.cart.cartItems).toEqual([]));
  });

  it('merges the guest cart on sign-in, shows capped notices, drops the local copy and reloads', async () => {
    const merged = { cartItems: [{ ...mug, quantity: 2 }, { ...lamp, quantity: 3 }], notices: ['Only 3 of Desk Lamp are in stock: quantity set to 3'] };
    const api = mockApi({
      'POST cart/merge': () => ({ body: merged }),
      'GET cart': () => ({ body: { cartItems: merged.cartItems } }),
    });
    const { probe } = renderWithProviders(<CartSync />, { state: makeState({ cartItems: [mug, { ...lamp, quantity: 1 }] }) });
    expect(JSON.parse(localStorage.getItem('cartItems') ?? '[]')).toHaveLength(2);

    act(() => probe.dispatch({ type: 'USER_SIGNIN', payload: customer }));

    await waitFor(() => expect(api.callsTo('POST cart/merge')).toHaveLength(1));
    expect(api.callsTo('POST cart/merge')[0]?.body).toEqual({
      items: [
        { productId: mug._id, quantity: 2 },
        { productId: lamp._id, quantity: 1 },
      ],
    });
    // The server cart is read only after the merge, never before (it would wipe the guest cart).
    expect(api.calls[0]).toMatchObject({ method: 'POST', path: 'cart/merge' });
    await waitFor(() => expect(toast.warning).toHaveBeenCalledWith('Only 3 of Desk Lamp are in stock: quantity set to 3'));
    expect(toast.warning).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(api.callsTo('GET cart')).toHaveLength(1));
    expect(probe.state.cart.cartItems).toEqual(merged.cartItems);
    expect(localStorage.getItem('cartItems')).toBeNull();
  });

  it('skips the merge when the guest cart is empty', async () => {
    const api = mockApi({ 'GET cart': () => ({ body: { cartItems: [lamp] } }) });
    const { probe } = renderWithProviders(<CartSync />);
    act(() => probe.dispatch({ type: 'USER_SIGNIN', payload: customer }));
    await waitFor(() => expect(probe.state.cart.cartItems).toEqual([lamp]));
    expect(api.callsTo('POST cart/merge')).toHaveLength(0);
  });

  it('forgets the server cart on sign-out', async () => {
    mockApi({ 'GET cart': () => ({ body: { cartItems: [lamp] } }) });
    const { probe, queryClient } = renderWithProviders(<CartSync />, { state: makeState({ userInfo: customer }) });
    await waitFor(() => expect(probe.state.cart.cartItems).toEqual([lamp]));
    act(() => probe.dispatch({ type: 'USER_SIGNOUT' }));
    expect(probe.state.cart.cartItems).toEqual([]);
    await waitFor(() => expect(queryClient.getQueryData(['cart'])).toBeUndefined());
  });
});
