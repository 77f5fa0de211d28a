import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useSignOut } from '../hooks/use-session';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { admin, customer, makeState, mockApi, renderWithProviders } from '../../../test/render';
import { AdminRoute, GuestOnlyRoute, ProtectedRoute } from './guards';

afterEach(() => vi.unstubAllGlobals());

describe('route guards', () => {
  it('ProtectedRoute sends anonymous visitors to /signin?redirect=path', async () => {
    mockApi({ 'GET users/current': () => ({ body: null }) });
    renderWithProviders(<ProtectedRoute>secret</ProtectedRoute>, { route: '/profile', path: '/profile' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/signin\?redirect=\/profile$/));
    expect(screen.queryByText('secret')).toBeNull();
  });

  it('keeps the query of the page in the redirect', async () => {
    mockApi({ 'GET users/current': () => ({ body: null }) });
    renderWithProviders(<ProtectedRoute>secret</ProtectedRoute>, { route: '/order/abc?x=1&y=2', path: '/order/:id' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/signin?redirect=/order/abc%3Fx%3D1%26y%3D2'));
  });

  it('ProtectedRoute restores a server session before deciding', async () => {
    mockApi({ 'GET users/current': () => ({ body: customer }) });
    renderWithProviders(<ProtectedRoute>secret</ProtectedRoute>, { route: '/profile', path: '/profile' });
    expect(await screen.findByText('secret')).toBeInTheDocument();
  });

  it('AdminRoute sends customers to /signin?redirect=path and lets admins in', async () => {
    mockApi({});
    const first = renderWithProviders(<AdminRoute>back office</AdminRoute>, { route: '/admin/products?page=2', path: '/admin/products', state: makeState({ userInfo: customer }) });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/signin\?redirect=\/admin\/products%3Fpage%3D2$/));
    expect(screen.queryByText('back office')).toBeNull();
    first.unmount();
    renderWithProviders(<AdminRoute>back office</AdminRoute>, { route: '/admin/dashboard', path: '/admin/dashboard', state: makeState({ userInfo: admin }) });
    expect(screen.getByText('back office')).toBeInTheDocument();
  });

  it('AdminRoute sends anonymous visitors to /signin?redirect=path', async () => {
    mockApi({ 'GET users/current': () => ({ body: null }) });
    renderWithProviders(<AdminRoute>back office</AdminRoute>, { route: '/admin/orders', path: '/admin/orders', state: makeState({ isLoggedOut: true }) });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/signin\?redirect=\/admin\/orders$/));
    expect(screen.queryByText('back office')).toBeNull();
  });

  it('signing out on a guarded page lands on plain /signin (no redirect back to the page left)', async () => {
    mockApi({ 'POST users/signout': () => ({ body: { message: 'Signed out successfully' } }) });
    function SignOutButton() {
      const signOut = useSignOut();
      return (
        <button type="button" onClick={() => void signOut()}>
          out
        </button>
      );
    }
    renderWithProviders(
      <ProtectedRoute>
        <SignOutButton />
      </ProtectedRoute>,
      { route: '/profile', path: '/profile', state: makeState({ userInfo: customer }) },
    );
    await userEvent.click(screen.getByRole('button', { name: 'out' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/signin$/));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/signin$/);
  });

  it('GuestOnlyRoute sends signed-in users to /', async () => {
    mockApi({});
    renderWithProviders(<GuestOnlyRoute>forgot</GuestOnlyRoute>, { route: '/forgot-password', path: '/forgot-password', state: makeState({ userInfo: customer }) });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });
});
