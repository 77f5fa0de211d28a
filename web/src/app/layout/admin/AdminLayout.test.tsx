import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetAvailability } from '../../../features/chat/lib/admin-availability';
import { FakeSocket } from '../../../features/chat/lib/fake-socket';
import { closeChatConnections } from '../../../features/chat/lib/shared-connection';
import { admin, customer, makeState, mockApi, renderWithProviders } from '../../../test/render';
import { Layout } from '../Layout';
import { AdminLayout } from './AdminLayout';

FakeSocket.wrap = (event) => act(event);

/** The app's shell with a storefront page and a few back-office pages inside AdminLayout, as router.tsx and admin-routes.tsx nest them. */
const app = (
  <Routes>
    <Route element={<Layout />}>
      <Route path="/" element={<h1>Home page</h1>} />
      <Route
        path="/admin/*"
        element={
          <Routes>
            <Route element={<AdminLayout />}>
              <Route path="products" element={<h1>Products</h1>} />
              <Route path="product/:id" element={<h1>Edit Product</h1>} />
              <Route path="cj-product-edit/:pid" element={<h1>Edit CJ Product</h1>} />
              <Route path="chats" element={<h1>Chats</h1>} />
              <Route path="users" element={<h1>Users</h1>} />
            </Route>
          </Routes>
        }
      />
    </Route>
    <Route path="/signin" element={<h1>Sign In page</h1>} />
  </Routes>
);

const history = (unreadConversations: number) => ({ body: { chats: [], page: 1, pages: 1, total: 0, unreadConversations } });

beforeEach(() => {
  closeChatConnections();
  resetAvailability();
  FakeSocket.all = [];
  vi.stubGlobal('WebSocket', FakeSocket);
  // The phone menu's offcanvas asks for the breakpoint.
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {} }));
  localStorage.clear();
});
afterEach(() => vi.unstubAllGlobals());

/** Waits for the shell's lazy end (toasts, cookie notice, and on the storefront the footer and chat button). */
const shellEnd = () => screen.findByText(/This website uses cookies/);

describe('the back office layout', () => {
  it('frames every admin page: areas in order, the current one marked, a link back to the store, the mode switch and the administrator menu', async () => {
    mockApi({ 'GET chat/all-history': () => history(0), 'POST chat/toggle-admin-status': () => ({ body: { isOnline: true, message: 'You are now online' } }) });
    renderWithProviders(app, { route: '/admin/product/0123456789abcdef01234567', state: makeState({ userInfo: admin }), path: '*' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit Product' })).toBeInTheDocument();
    const sidebar = screen.getByRole('complementary', { name: 'Back office' });
    const nav = within(sidebar).getByRole('navigation', { name: 'Back office areas' });
    expect(within(nav).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
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
    expect(within(nav).getByRole('link', { name: 'Products' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Orders' })).not.toHaveAttribute('aria-current');
    const banner = screen.getByRole('banner');
    expect(within(banner).getByRole('link', { name: 'View store' })).toHaveAttribute('href', '/');
    expect(within(banner).getByRole('switch', { name: 'Dark mode' })).toBeInTheDocument();
    await userEvent.click(within(banner).getByRole('button', { name: 'Hello, Admin' }));
    expect(within(banner).getByRole('link', { name: 'Sign Out' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveTextContent('Edit Product');
    // The page sits in the main landmark the skip link leads to.
    expect(screen.getByRole('link', { name: 'Skip to main content' })).toHaveAttribute('href', '#main-content');
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main-content');
  });

  it('has none of the storefront around it (search, categories, newsletter, payment icons, chat button); the storefront has them', async () => {
    mockApi({ 'GET chat/all-history': () => history(0), 'POST chat/toggle-admin-status': () => ({ body: { isOnline: true, message: 'You are now online' } }), 'GET products/categories': () => ({ body: ['Books'] }) });
    const { unmount } = renderWithProviders(app, { route: '/admin/users', state: makeState({ userInfo: admin }), path: '*' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Users' })).toBeInTheDocument();
    await shellEnd();
    expect(screen.queryByRole('search')).toBeNull();
    expect(screen.queryByRole('button', { name: 'All Categories' })).toBeNull();
    expect(screen.queryByRole('list', { name: 'Payment methods we accept' })).toBeNull();
    expect(screen.queryByText(/newsletter/i)).toBeNull();
    expect(screen.queryByRole('button', { name: /^Chat Support/ })).toBeNull();
    expect(screen.queryByRole('contentinfo')).toBeNull();
    unmount();

    renderWithProviders(app, { route: '/', state: makeState({ userInfo: admin }), path: '*' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Home page' })).toBeInTheDocument();
    await shellEnd();
    expect(screen.getByRole('search')).toBeInTheDocument();
    expect(await screen.findByRole('list', { name: 'Payment methods we accept' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Chat Support/ })).toBeInTheDocument();
    // The storefront header keeps the specification's Admin menu.
    expect(screen.getByRole('button', { name: 'Admin' })).toBeInTheDocument();
    expect(screen.queryByRole('complementary', { name: 'Back office' })).toBeNull();
  });

  it('marks the area of item pages, shows the unread conversations on Chats, and opens the same areas as a menu on a phone', async () => {
    mockApi({ 'GET chat/all-history': () => history(3), 'POST chat/toggle-admin-status': () => ({ body: { isOnline: true, message: 'You are now online' } }) });
    renderWithProviders(app, { route: '/admin/cj-product-edit/ABC-1', state: makeState({ userInfo: admin }), path: '*' });
    const sidebar = within(screen.getByRole('complementary', { name: 'Back office' }));
    expect(await sidebar.findByTestId('nav-unread-chats')).toHaveTextContent(/^3$/);
    expect(sidebar.getByRole('link', { name: 'Supplier catalogue' })).toHaveAttribute('aria-current', 'page');
    expect(sidebar.getByRole('link', { name: /^Chats/ })).toHaveAccessibleName('Chats, 3 conversations with unread messages');

    const menuButton = screen.getByRole('button', { name: 'Open navigation' });
    expect(menuButton).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(menuButton);
    const drawer = await screen.findByRole('dialog', { name: 'Back office' });
    expect(within(drawer).getAllByRole('link').map((a) => a.textContent)).toEqual([
      'Dashboard', 'Orders', 'Products', 'Supplier catalogue', 'Discounts', 'Users', 'Leads', 'Chats3', 'Pages', 'Shipping', 'View store',
    ]);
    await userEvent.click(within(drawer).getByRole('link', { name: /^Chats/ }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Chats' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Back office' })).toBeNull());
    expect(sidebar.getByRole('link', { name: /^Chats/ })).toHaveAttribute('aria-current', 'page');
  });

  it('keeps the tab reachable for chat on every admin page: one socket, the remembered Online/Offline told to the server once', async () => {
    localStorage.setItem('adminStatus', 'false');
    const api = mockApi({ 'GET chat/all-history': () => history(0), 'POST chat/toggle-admin-status': (body) => ({ body: { isOnline: (body as { isOnline: boolean }).isOnline, message: 'ok' } }) });
    renderWithProviders(app, { route: '/admin/users', state: makeState({ userInfo: admin }), path: '*' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Users' })).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('POST chat/toggle-admin-status')).toEqual([expect.objectContaining({ body: { isOnline: false } })]));
    expect(FakeSocket.all).toHaveLength(1);
    expect(FakeSocket.all[0]!.url).toMatch(/\/ws\/chat$/);
    await userEvent.click(within(screen.getByRole('complementary', { name: 'Back office' })).getByRole('link', { name: 'Products' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Products' })).toBeInTheDocument();
    expect(FakeSocket.all).toHaveLength(1);
    expect(api.callsTo('POST chat/toggle-admin-status')).toHaveLength(1);
  });

  it('is for administrators only: a customer goes to /signin, with no back-office frame', async () => {
    mockApi({});
    renderWithProviders(app, { route: '/admin/users', state: makeState({ userInfo: customer }), path: '*' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign In page' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/signin?redirect=/admin/users');
    expect(screen.queryByRole('complementary', { name: 'Back office' })).toBeNull();
    expect(FakeSocket.all).toHaveLength(0);
  });
});
