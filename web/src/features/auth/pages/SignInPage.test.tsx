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

  it('says how long to wait after too many attempts (429 with Retry-After)', async () => {
    mockApi({
      'POST users/signin': () => ({ status: 429, headers: { 'retry-after': '624' }, body: { message: 'Too many attempts. Please try again later.', code: 'RATE_LIMITED' } }),
    });
    renderWithProviders(<SignInPage />, { route: '/signin', path: '/signin' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'jane@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Please try again in 11 minutes.');
  });

  it('sends a signed-in visitor to the redirect at once, and never off-site', async () => {
    mockApi({});
    renderWithProviders(<SignInPage />, { route: '/signin?redirect=//evil.example', path: '/signin', state: makeState({ userInfo: customer }) });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it('explains that an administrator account is needed for a back-office redirect, and comes back after an admin signs in', async () => {
    mockApi({ 'POST users/signin': () => ({ body: { ...customer, isAdmin: true } }) });
    renderWithProviders(<SignInPage />, { route: '/signin?redirect=/admin/orders', path: '/signin', state: makeState({ isLoggedOut: true }) });
    expect(screen.getByText(/An administrator account is needed to open that page/)).toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'admin@example.com');
    await user.type(screen.getByLabelText('Password'), 'admin1234');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/admin/orders'));
  });

  it('keeps a signed-in customer on the page (to switch to an administrator account) instead of bouncing to /', () => {
    mockApi({});
    renderWithProviders(<SignInPage />, { route: '/signin?redirect=/admin/dashboard', path: '/signin', state: makeState({ userInfo: customer }) });
    expect(screen.getByTestId('location')).toHaveTextContent('/signin?redirect=/admin/dashboard');
    expect(screen.getByText(/You are signed in as a customer/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('keeps a signed-in customer on the page for the supplier form /cj-products too (its guard would send them straight back)', () => {
    mockApi({});
    renderWithProviders(<SignInPage />, { route: '/signin?redirect=%2Fcj-products%3Fpid%3DANY', path: '/signin', state: makeState({ userInfo: customer }) });
    expect(screen.getByTestId('location')).toHaveTextContent('/signin?redirect=%2Fcj-products%3Fpid%3DANY');
    expect(screen.getByText(/You are signed in as a customer/)).toBeInTheDocument();
  });

  it('shows a message once: a field error from the server is not repeated in an alert', async () => {
    mockApi({ 'POST users/signin': () => ({ status: 400, body: { message: 'Please enter a valid email address', fieldErrors: { email: 'Please enter a valid email address' } } }) });
    renderWithProviders(<SignInPage />, { route: '/signin', path: '/signin' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'jane@example.com');
    await user.type(screen.getByLabelText('Password'), 'x');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getAllByText('Please enter a valid email address')).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
