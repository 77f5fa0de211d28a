import { act, render } from '@testing-library/react';
import type { Dispatch } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeCartItem } from '../test/cart-utils';
import { customer, makeState } from '../test/render';
import { DEFAULT_PAYMENT_METHOD, loadInitialState, serverInitialState, StoreProvider, storeReducer, useStore, type CartItem, type StoreAction } from './store';

const item: CartItem = makeCartItem({ quantity: 2, isOnSale: false, saleDiscount: 0 });
const address = { fullName: 'Jane', address: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };

describe('storeReducer sign-in state', () => {
  it('USER_SIGNOUT empties the cart, clears address and message, resets the payment method and sets isLoggedOut', () => {
    const signedIn = makeState({
      userInfo: customer,
      mode: 'dark',
      cart: { cartItems: [item], shippingAddress: address, paymentMethod: 'Stripe' },
      message: 'hello',
    });
    const next = storeReducer(signedIn, { type: 'USER_SIGNOUT' });
    expect(next).toEqual({
      userInfo: null,
      isLoggedOut: true,
      mode: 'dark',
      cart: { cartItems: [], shippingAddress: null, paymentMethod: DEFAULT_PAYMENT_METHOD },
      message: null,
    });
    expect(DEFAULT_PAYMENT_METHOD).toBe('PayPal');
  });

  it('USER_SIGNIN stores the user and clears isLoggedOut', () => {
    const next = storeReducer(makeState({ isLoggedOut: true }), { type: 'USER_SIGNIN', payload: customer });
    expect(next.userInfo).toEqual(customer);
    expect(next.isLoggedOut).toBe(false);
  });

  it('USER_UPDATE replaces the user and keeps the rest', () => {
    const state = makeState({ userInfo: customer, cart: { cartItems: [item], shippingAddress: null, paymentMethod: 'PayPal' } });
    const next = storeReducer(state, { type: 'USER_UPDATE', payload: { ...customer, name: 'Jane Doe' } });
    expect(next.userInfo?.name).toBe('Jane Doe');
    expect(next.cart.cartItems).toEqual([item]);
  });

  it("SET_LOGGED_OUT sets the flag and keeps a guest's cart", () => {
    const guest = makeState({ cart: { cartItems: [item], shippingAddress: null, paymentMethod: 'PayPal' } });
    const next = storeReducer(guest, { type: 'SET_LOGGED_OUT' });
    expect(next.isLoggedOut).toBe(true);
    expect(next.cart.cartItems).toEqual([item]);
  });

  it('TOGGLE_MODE flips between light and dark', () => {
    expect(storeReducer(makeState(), { type: 'TOGGLE_MODE' }).mode).toBe('dark');
    expect(storeReducer(makeState({ mode: 'dark' }), { type: 'TOGGLE_MODE' }).mode).toBe('light');
  });
});

describe('StoreProvider persistence', () => {
  it('remembers the mode, sets data-bs-theme and never stores a token', () => {
    render(
      <StoreProvider initialState={makeState({ mode: 'dark', userInfo: customer })}>
        <span />
      </StoreProvider>,
    );
    expect(localStorage.getItem('mode')).toBe('"dark"');
    expect(document.documentElement.getAttribute('data-bs-theme')).toBe('dark');
    expect(JSON.parse(localStorage.getItem('userInfo') ?? 'null')).toEqual(customer);
    expect(Object.keys(localStorage).some((k) => /token/i.test(k) || /token/i.test(localStorage.getItem(k) ?? ''))).toBe(false);
  });

  it('after sign-out the stored cart is empty and isLoggedOut is stored', () => {
    render(
      <StoreProvider initialState={makeState({ isLoggedOut: true, cart: { cartItems: [], shippingAddress: null, paymentMethod: 'PayPal' } })}>
        <span />
      </StoreProvider>,
    );
    expect(JSON.parse(localStorage.getItem('cartItems') ?? '[]')).toEqual([]);
    expect(localStorage.getItem('isLoggedOut')).toBe('true');
    expect(localStorage.getItem('userInfo')).toBeNull();
  });
});

describe('StoreProvider and a guest cart saved while the app starts', () => {
  afterEach(() => localStorage.clear());

  it('does not write the cart it read back over a newer one, and writes it once it changes', () => {
    localStorage.clear();
    localStorage.setItem('cartItems', JSON.stringify([item]));
    const newer = [item, makeCartItem({ _id: 'bbbbbbbbbbbbbbbbbbbbbbbb', quantity: 3 })];
    let dispatch: Dispatch<StoreAction> = () => {};
    // Renders after the provider has read localStorage and before its effects run: another tab
    // (or a script) saving a cart in that moment.
    function SavedMeanwhile() {
      localStorage.setItem('cartItems', JSON.stringify(newer));
      dispatch = useStore().dispatch;
      return null;
    }
    render(
      <StoreProvider>
        <SavedMeanwhile />
      </StoreProvider>,
    );
    expect(JSON.parse(localStorage.getItem('cartItems') ?? '[]')).toEqual(newer);
    act(() => dispatch({ type: 'CART_CLEAR' }));
    expect(JSON.parse(localStorage.getItem('cartItems') ?? 'null')).toEqual([]);
  });
});

describe('display mode on a first visit', () => {
  const withOsPreference = (dark: boolean) =>
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: dark && query === '(prefers-color-scheme: dark)', media: query, addEventListener() {}, removeEventListener() {} }));
  afterEach(() => { vi.unstubAllGlobals(); localStorage.clear(); });

  it('follows the OS preference when nothing is stored, and a stored choice wins afterwards', () => {
    localStorage.clear();
    withOsPreference(true);
    expect(loadInitialState().mode).toBe('dark');
    withOsPreference(false);
    expect(loadInitialState().mode).toBe('light');
    localStorage.setItem('mode', '"dark"');
    expect(loadInitialState().mode).toBe('dark');
  });
});

describe('hydrating a server-rendered page', () => {
  afterEach(() => {
    localStorage.clear();
    document.cookie = 'mode=; path=/; max-age=0';
  });

  it("renders the server's state first (anonymous, empty cart, its theme), then the browser's stored state, without overwriting it before", () => {
    localStorage.setItem('cartItems', JSON.stringify([item]));
    localStorage.setItem('mode', JSON.stringify('dark'));
    const seen: { user: string | null; items: number; mode: string; pending: boolean; stored: string | null }[] = [];
    function Probe() {
      const { state } = useStore();
      seen.push({
        user: state.userInfo?.name ?? null, items: state.cart.cartItems.length, mode: state.mode,
        pending: Boolean(state.pendingRestore), stored: localStorage.getItem('cartItems'),
      });
      return null;
    }
    render(
      <StoreProvider initialState={serverInitialState('light')}>
        <Probe />
      </StoreProvider>,
    );
    expect(seen[0]).toEqual({ user: null, items: 0, mode: 'light', pending: true, stored: JSON.stringify([item]) });
    expect(seen.at(-1)).toEqual({ user: null, items: 1, mode: 'dark', pending: false, stored: JSON.stringify([item]) });
    // Nothing stored was lost on the way, and the server learns the theme from its cookie.
    expect(JSON.parse(localStorage.getItem('cartItems')!)).toEqual([item]);
    expect(document.documentElement.getAttribute('data-bs-theme')).toBe('dark');
    expect(document.cookie).toContain('mode=dark');
  });

  it('a signed-in user stored in the browser appears right after hydration', () => {
    localStorage.setItem('userInfo', JSON.stringify(customer));
    const names: (string | null)[] = [];
    function Probe() {
      names.push(useStore().state.userInfo?.name ?? null);
      return null;
    }
    render(
      <StoreProvider initialState={serverInitialState('light')}>
        <Probe />
      </StoreProvider>,
    );
    expect(names[0]).toBeNull();
    expect(names.at(-1)).toBe(customer.name);
    expect(localStorage.getItem('userInfo')).toBe(JSON.stringify(customer));
  });

  it('rendered by the server for a signed-in visitor: their name and cart from the first render on, kept by RESTORE, with the stored preferences', () => {
    // This browser stored nobody (signed in elsewhere, or its storage cleared) and keeps no cart for a signed-in user.
    localStorage.setItem('mode', JSON.stringify('dark'));
    localStorage.setItem('paymentMethod', JSON.stringify('Stripe'));
    const seen: { user: string | null; items: number; mode: string; payment: string }[] = [];
    function Probe() {
      const { state } = useStore();
      seen.push({ user: state.userInfo?.name ?? null, items: state.cart.cartItems.length, mode: state.mode, payment: state.cart.paymentMethod });
      return null;
    }
    render(
      <StoreProvider initialState={serverInitialState('light', { user: customer, cartItems: [item] })}>
        <Probe />
      </StoreProvider>,
    );
    expect(seen[0]).toEqual({ user: customer.name, items: 1, mode: 'light', payment: DEFAULT_PAYMENT_METHOD });
    expect(seen.at(-1)).toEqual({ user: customer.name, items: 1, mode: 'dark', payment: 'Stripe' });
    // Every render showed the name: no flip to "Sign In" and back.
    expect(seen.every((s) => s.user === customer.name && s.items === 1)).toBe(true);
    expect(localStorage.getItem('userInfo')).toBe(JSON.stringify(customer));
    expect(localStorage.getItem('cartItems')).toBeNull();
  });

  it('a page rendered for no one with a session cookie waits for who it is: the stored user, else users/current (sessionPending)', () => {
    const pending = serverInitialState('light', null, true);
    expect(pending.sessionPending).toBe(true);
    // A page rendered for its visitor knows them already.
    expect(serverInitialState('light', { user: customer, cartItems: [] }, true).sessionPending).toBeUndefined();
    // The browser stores the user: shown at once.
    const withUser = storeReducer(pending, { type: 'RESTORE', payload: makeState({ userInfo: customer }) });
    expect(withUser.userInfo).toEqual(customer);
    expect(withUser.sessionPending).toBeUndefined();
    // It stores nobody: still waiting, until the server answers (a user, or nobody).
    const waiting = storeReducer(pending, { type: 'RESTORE', payload: makeState({ userInfo: null }) });
    expect(waiting.sessionPending).toBe(true);
    expect(storeReducer(waiting, { type: 'USER_SIGNIN', payload: customer }).sessionPending).toBeUndefined();
    expect(storeReducer(waiting, { type: 'SESSION_SETTLED' }).sessionPending).toBeUndefined();
    expect(storeReducer(waiting, { type: 'SET_LOGGED_OUT' }).sessionPending).toBeUndefined();
    // Signed out here before: nothing to wait for (users/current is not asked).
    expect(storeReducer(pending, { type: 'RESTORE', payload: makeState({ userInfo: null, isLoggedOut: true }) }).sessionPending).toBeUndefined();
  });

  it('RESTORE applies only once, to the server-rendered state', () => {
    const restored = makeState({ userInfo: customer });
    expect(storeReducer(serverInitialState('dark'), { type: 'RESTORE', payload: restored })).toBe(restored);
    const live = makeState({ userInfo: null });
    expect(storeReducer(live, { type: 'RESTORE', payload: restored })).toBe(live);
  });
});
