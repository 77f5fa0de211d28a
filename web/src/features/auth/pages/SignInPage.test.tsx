import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentUserKey } from '../api/get-current-user';
import { customer, makeState, mockApi, renderWithProviders } from '../../../test/render';
import SignInPage from './SignInPage';

afterEach(() => vi.unstubAllGlobals());

describe('SignInPage', () => {
  it('has links to /signup and /forgot-password', () => {
    mockApi({});
    renderWithProviders(<SignInPage />, { route: '/signin', path: '/signin' });
    expect(screen.getByRole('link', { name: 'Create your account' })).toHaveAttribute('href', '/signup');
    expect(screen.getByRole('link', { name: 'Reset Password' })).toHaveAttribute('href', '/forgot-password');
  });

  it('requires email and password', async () => {
    const { calls } = mockApi({});
    renderWithProviders(<SignInPage />, { route: '/signin', path: '/signin' });
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('signs in, clears isLoggedOut, primes the current-user cache and honours ?redirect', async () => {
    const { callsTo } = mockApi({ 'POST users/signin': () => ({ body: customer }) });
    const { probe, queryClient } = renderWithProviders(<SignInPage />, { route: '/signin?redirect=/shipping', path: '/signin', state: makeState({ isLoggedOut: true }) });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'jane@example.com');
    await user.type(screen.getByLabelText('Password'), 'jane1234');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/shipping'));
    expect(callsTo('POST users/signin')[0]?.body).toEqual({ email: 'jane@example.com', password: 'jane1234' });
    expect(probe.state.userInfo).toEqual(customer);
    expect(probe.state.isLoggedOut).toBe(false);
    expect(queryClient.getQueryData(currentUserKey)).toEqual(customer);
  });

  it("shows the server's message in a red alert", async () => {
    mockApi({ 'POST users/signin': () => ({ status: 401, body: { message: 'Invalid email or password' } }) });
    renderWithProviders(<SignInPage />, { route: '/signin', path: '/signin' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'jane@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
  });

  it('sends a signed-in visitor to the redirect at once, and never off-site', async () => {
    mockApi({});
    renderWithProviders(<SignInPage />, { route: '/signin?redirect=//evil.example', path: '/signin', state: makeState({ userInfo: customer }) });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });
});
