import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SESSION_EXPIRED_EVENT } from '../../../lib/api-client';
import { customer, makeState, mockApi, renderWithProviders } from '../../../test/render';
import { SessionSync } from './SessionSync';

afterEach(() => vi.unstubAllGlobals());

const storeUser = () => localStorage.setItem('userInfo', JSON.stringify(customer));

describe('SessionSync', () => {
  it('restores a session the server knows when nothing is stored (USER_SIGNIN)', async () => {
    mockApi({ 'GET users/current': () => ({ body: customer }) });
    const { probe } = renderWithProviders(<SessionSync />);
    await waitFor(() => expect(probe.state.userInfo).toEqual(customer));
    expect(probe.state.isLoggedOut).toBe(false);
  });

  it('does not restore anything after an explicit sign-out (isLoggedOut)', async () => {
    const { calls } = mockApi({ 'GET users/current': () => ({ body: customer }) });
    const { probe } = renderWithProviders(<SessionSync />, { state: makeState({ isLoggedOut: true }) });
    await act(async () => {
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(calls).toHaveLength(0);
    expect(probe.state.userInfo).toBeNull();
  });

  it('signs out locally when the server says null and the refresh token is gone too', async () => {
    storeUser();
    const { callsTo } = mockApi({
      'GET users/current': () => ({ body: null }),
      'POST users/refresh-token': () => ({ status: 401, body: { message: 'Not signed in. Please sign in.' } }),
    });
    const { probe } = renderWithProviders(<SessionSync />, { route: '/cart', state: makeState({ userInfo: customer }) });
    await waitFor(() => expect(probe.state.userInfo).toBeNull());
    expect(probe.state.isLoggedOut).toBe(true);
    expect(callsTo('POST users/refresh-token')).toHaveLength(1);
    expect(screen.getByTestId('location')).toHaveTextContent('/cart');
  });

  it('keeps the user when only the short-lived access cookie had lapsed (refresh succeeds)', async () => {
    storeUser();
    let refreshed = false;
    mockApi({
      'GET users/current': () => ({ body: refreshed ? customer : null }),
      'POST users/refresh-token': () => {
        refreshed = true;
        return { body: { message: 'ok' } };
      },
    });
    const { probe, queryClient } = renderWithProviders(<SessionSync />, { state: makeState({ userInfo: customer }) });
    await waitFor(() => expect(queryClient.getQueryData(['users', 'current'])).toEqual(customer));
    expect(probe.state.userInfo).toEqual(customer);
    expect(probe.state.isLoggedOut).toBe(false);
  });

  it('applies a changed name from the server (USER_UPDATE)', async () => {
    storeUser();
    mockApi({ 'GET users/current': () => ({ body: { ...customer, name: 'Jane Doe' } }) });
    const { probe } = renderWithProviders(<SessionSync />, { state: makeState({ userInfo: customer }) });
    await waitFor(() => expect(probe.state.userInfo?.name).toBe('Jane Doe'));
  });

  it('keeps the last known user on a network failure', async () => {
    storeUser();
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    const { probe } = renderWithProviders(<SessionSync />, { state: makeState({ userInfo: customer }) });
    await act(async () => {
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(probe.state.userInfo).toEqual(customer);
  });

  it('on SESSION_EXPIRED_EVENT signs out locally and goes to /signin', async () => {
    storeUser();
    mockApi({ 'GET users/current': () => ({ body: customer }) });
    const { probe } = renderWithProviders(<SessionSync />, { route: '/orderhistory', state: makeState({ userInfo: customer }) });
    act(() => {
      window.dispatchEvent(new CustomEvent(SESSION_EXPIRED_EVENT));
    });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/signin$/));
    expect(probe.state.userInfo).toBeNull();
    expect(probe.state.isLoggedOut).toBe(true);
  });
});
