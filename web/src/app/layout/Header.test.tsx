import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { admin, customer, makeState, mockApi, renderWithProviders } from '../../test/render';
import type { CartItem } from '../../lib/store';
import { Header } from './Header';

const item = (id: string, quantity: number): CartItem => ({
  _id: id,
  name: `Item ${id}`,
  slug: `item-${id}`,
  image: '/x.jpg',
  price: 1,
  countInStock: 10,
  quantity,
  isOnSale: false,
  saleDiscount: 0,
  isTodaysDeal: false,
  isGift: false,
});

afterEach(() => vi.unstubAllGlobals());

describe('Header', () => {
  it('tabs in visual order (brand, search, cart, menu toggle, menu) and keeps the search box outside the collapsed menu', async () => {
    mockApi({});
    renderWithProviders(<Header />, { state: makeState({ userInfo: customer }) });
    const user = userEvent.setup();
    const order: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      await user.tab();
      const el = document.activeElement as HTMLElement;
      order.push(el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.tagName);
    }
    expect(order[0]).toMatch(/^Shop/);
    expect(order.slice(1, 5)).toEqual(['Search products', 'Search', 'Cart', 'Toggle navigation']);
    expect(screen.getByRole('searchbox', { name: 'Search products' }).closest('#main-nav')).toBeNull();
  });

  it('while a session cookie\'s user is not known yet (sessionPending), offers neither Sign In nor a name, keeping the place', () => {
    mockApi({});
    renderWithProviders(<Header />, { state: { ...makeState({ userInfo: null }), sessionPending: true } });
    expect(screen.queryByRole('link', { name: 'Sign In' })).toBeNull();
    expect(screen.queryByText(/Hello,/)).toBeNull();
    expect(screen.getByTestId('session-pending')).toHaveAttribute('aria-hidden', 'true');
    expect(screen.getByTestId('session-pending')).toHaveClass('invisible');
  });

  it('shows brand, Sign In when signed out, and a cart badge with the sum of quantities', () => {
    mockApi({});
    renderWithProviders(<Header />, { state: makeState({ cart: { cartItems: [item('a', 2), item('b', 3)], shippingAddress: null, paymentMethod: 'PayPal' } }) });
    expect(screen.getByRole('link', { name: /Shop/ })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/signin');
    expect(screen.getByTestId('cart-badge')).toHaveTextContent('5');
    expect(screen.getByRole('link', { name: /Cart/ })).toHaveAttribute('href', '/cart');
    expect(screen.queryByText(/Hello,/)).toBeNull();
    expect(screen.queryByRole('link', { name: 'Orders' })).toBeNull();
  });

  it('search submits to /search?query=text, or /search when empty', async () => {
    mockApi({});
    renderWithProviders(<Header />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/search$/);
    await user.type(screen.getByRole('searchbox', { name: 'Search products' }), 'blue mug{Enter}');
    expect(screen.getByTestId('location')).toHaveTextContent('/search?query=blue+mug');
  });

  it('search is a real form (GET /search, field query) the browser submits itself before the app starts; the app reads what the box holds', async () => {
    mockApi({});
    renderWithProviders(<Header />);
    const box = screen.getByRole('searchbox', { name: 'Search products' });
    const form = screen.getByRole('search');
    expect(form).toHaveAttribute('action', '/search');
    expect(form).toHaveAttribute('method', 'get');
    expect(box).toHaveAttribute('name', 'query');
    // Text typed into the server's page before hydration is in the box but not in the app's state.
    (box as HTMLInputElement).value = 'lamp';
    fireEvent.submit(form);
    expect(screen.getByTestId('location')).toHaveTextContent('/search?query=lamp');
  });

  it('sub-header links go to the fixed tags', () => {
    mockApi({});
    renderWithProviders(<Header />);
    expect(screen.getByRole('link', { name: 'Todays Deal' })).toHaveAttribute('href', '/search?tag=todays-deal');
    expect(screen.getByRole('link', { name: 'Gifts' })).toHaveAttribute('href', '/search?tag=gifts');
    expect(screen.getByRole('link', { name: 'On Sale' })).toHaveAttribute('href', '/search?tag=on-sale');
  });

  it('the light/dark switch toggles and remembers the mode', async () => {
    mockApi({});
    const { probe } = renderWithProviders(<Header />);
    const toggle = screen.getByRole('switch', { name: 'Dark mode' });
    expect(toggle).not.toBeChecked();
    await userEvent.click(toggle);
    expect(probe.state.mode).toBe('dark');
    expect(document.documentElement.getAttribute('data-bs-theme')).toBe('dark');
    expect(localStorage.getItem('mode')).toBe('"dark"');
  });

  it("a customer gets 'Hello, {name}' with User Profile and Sign Out, and Orders, but no admin menu", async () => {
    mockApi({});
    renderWithProviders(<Header />, { state: makeState({ userInfo: customer }) });
    expect(screen.getByRole('link', { name: 'Orders' })).toHaveAttribute('href', '/orderhistory');
    expect(screen.queryByRole('button', { name: 'Admin' })).toBeNull();
    const toggle = screen.getByRole('button', { name: 'Hello, Jane Customer' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('link', { name: 'User Profile' })).toHaveAttribute('href', '/profile');
    expect(screen.getByRole('link', { name: 'Sign Out' })).toBeInTheDocument();
  });

  it('the menus work from the keyboard (ArrowDown opens and focuses, Escape closes)', async () => {
    mockApi({});
    renderWithProviders(<Header />, { state: makeState({ userInfo: customer }) });
    const user = userEvent.setup();
    const toggle = screen.getByRole('button', { name: 'Hello, Jane Customer' });
    toggle.focus();
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(screen.getByRole('link', { name: 'User Profile' })).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('link', { name: 'Sign Out' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });

  it('an admin gets the admin menu with the back office\'s ten areas (the spec\'s six, Discounts, Leads, Pages and Shipping)', async () => {
    mockApi({});
    renderWithProviders(<Header />, { state: makeState({ userInfo: admin }) });
    await userEvent.click(screen.getByRole('button', { name: 'Admin' }));
    const menu = screen.getByRole('link', { name: 'Dashboard' }).closest('.dropdown-menu') as HTMLElement;
    const links = within(menu).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['Dashboard', '/admin/dashboard'],
      ['Orders', '/admin/orders'],
      ['Products', '/admin/products'],
      ['Supplier catalogue', '/admin/cj-products'],
      ['Discounts', '/admin/discounts'],
      ['Users', '/admin/users'],
      ['Leads', '/admin/leads'],
      ['Chats', '/admin/chats'],
      ['Pages', '/admin/pages'],
      ['Shipping', '/admin/shipping'],
    ]);
  });

  it('the admin menu reaches Leads from the keyboard (ArrowDown, End, ArrowUp) and follows it with Enter', async () => {
    mockApi({});
    renderWithProviders(<Header />, { state: makeState({ userInfo: admin }) });
    const user = userEvent.setup();
    screen.getByRole('button', { name: 'Admin' }).focus();
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(screen.getByRole('link', { name: 'Dashboard' })).toHaveFocus());
    await user.keyboard('{End}');
    expect(screen.getByRole('link', { name: 'Shipping' })).toHaveFocus();
    await user.keyboard('{ArrowUp}{ArrowUp}{ArrowUp}');
    expect(screen.getByRole('link', { name: 'Leads' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/admin\/leads$/));
  });

  it('Sign Out posts users/signout, signs out locally and goes to /signin; a failed call is only logged', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { callsTo } = mockApi({ 'POST users/signout': () => ({ status: 500, body: { message: 'boom' } }) });
    const { probe } = renderWithProviders(<Header />, {
      route: '/profile',
      state: makeState({ userInfo: customer, cart: { cartItems: [item('a', 1)], shippingAddress: null, paymentMethod: 'PayPal' } }),
    });
    await userEvent.click(screen.getByRole('button', { name: 'Hello, Jane Customer' }));
    await userEvent.click(screen.getByRole('link', { name: 'Sign Out' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/signin$/));
    expect(callsTo('POST users/signout')).toHaveLength(1);
    expect(probe.state.userInfo).toBeNull();
    expect(probe.state.isLoggedOut).toBe(true);
    expect(probe.state.cart.cartItems).toEqual([]);
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });
});
