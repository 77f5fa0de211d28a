import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { customer, makeState, mockApi, renderWithProviders } from '../../../test/render';
import ConfirmSignUpPage from './ConfirmSignUpPage';

afterEach(() => vi.unstubAllGlobals());

describe('ConfirmSignUpPage', () => {
  it('sends the token once, signs the new user in (USER_SIGNIN) and goes to ?redirect', async () => {
    const { callsTo } = mockApi({ 'POST users/confirm-signup': () => ({ status: 201, body: customer }) });
    const { probe } = renderWithProviders(<ConfirmSignUpPage />, {
      route: '/confirm-signup?token=abc-123&redirect=/shipping', path: '/confirm-signup', state: makeState({ isLoggedOut: true }),
    });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/shipping'));
    expect(callsTo('POST users/confirm-signup')).toEqual([{ method: 'POST', path: 'users/confirm-signup', body: { token: 'abc-123' } }]);
    expect(probe.state.userInfo).toEqual(customer);
    expect(probe.state.isLoggedOut).toBe(false);
  });

  it('goes home by default', async () => {
    mockApi({ 'POST users/confirm-signup': () => ({ status: 201, body: customer }) });
    renderWithProviders(<ConfirmSignUpPage />, { route: '/confirm-signup?token=t', path: '/confirm-signup' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it("shows the server's message with the ways forward when the link is invalid", async () => {
    mockApi({ 'POST users/confirm-signup': () => ({ status: 400, body: { message: 'This confirmation link is invalid or has expired', code: 'INVALID_SIGNUP_TOKEN' } }) });
    const { probe } = renderWithProviders(<ConfirmSignUpPage />, { route: '/confirm-signup?token=used', path: '/confirm-signup' });
    expect(await screen.findByRole('alert')).toHaveTextContent('This confirmation link is invalid or has expired');
    expect(screen.getByRole('link', { name: 'Sign up again' })).toHaveAttribute('href', '/signup');
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/signin');
    expect(probe.state.userInfo).toBeNull();
  });

  it('without a token goes to / and sends nothing', async () => {
    const { calls } = mockApi({});
    renderWithProviders(<ConfirmSignUpPage />, { route: '/confirm-signup', path: '/confirm-signup' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(calls).toHaveLength(0);
  });
});
