import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeState, mockApi, renderWithProviders } from '../../../test/render';
import SignUpPage from './SignUpPage';

afterEach(() => vi.unstubAllGlobals());

async function fill(values: { name?: string; email?: string; password?: string; confirm?: string }) {
  const user = userEvent.setup();
  if (values.name) await user.type(screen.getByLabelText('Name'), values.name);
  if (values.email) await user.type(screen.getByLabelText('Email'), values.email);
  if (values.password) await user.type(screen.getByLabelText('Password'), values.password);
  if (values.confirm) await user.type(screen.getByLabelText('Confirm Password'), values.confirm);
  await user.click(screen.getByRole('button', { name: 'Sign Up' }));
}

describe('SignUpPage', () => {
  it("shows 'Passwords do not match' and sends nothing when the passwords differ", async () => {
    const { calls } = mockApi({});
    renderWithProviders(<SignUpPage />, { route: '/signup', path: '/signup' });
    await fill({ name: 'New Shopper', email: 'new@example.com', password: 'password123', confirm: 'password124' });
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(screen.getByLabelText('Confirm Password')).toHaveAttribute('aria-invalid', 'true');
    expect(calls).toHaveLength(0);
  });

  it('requires every field', async () => {
    const { calls } = mockApi({});
    renderWithProviders(<SignUpPage />, { route: '/signup', path: '/signup' });
    await fill({});
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByText('Please confirm your password')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('sends the sign-up with ?redirect and shows "check your e-mail"; nobody is signed in yet', async () => {
    const { callsTo } = mockApi({ 'POST users/signup': () => ({ status: 202, body: { message: 'Check your e-mail to finish creating your account.' } }) });
    const { probe } = renderWithProviders(<SignUpPage />, { route: '/signup?redirect=/shipping', path: '/signup', state: makeState({ isLoggedOut: true }) });
    await fill({ name: 'Jane Customer', email: 'jane@example.com', password: 'password123', confirm: 'password123' });
    expect(await screen.findByRole('heading', { name: 'Check your e-mail' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Check your e-mail to finish creating your account.');
    expect(screen.getByText('jane@example.com')).toBeInTheDocument();
    expect(callsTo('POST users/signup')[0]?.body).toEqual({ name: 'Jane Customer', email: 'jane@example.com', password: 'password123', redirect: '/shipping' });
    expect(screen.getByTestId('location')).toHaveTextContent('/signup');
    expect(probe.state.userInfo).toBeNull();
    expect(probe.state.isLoggedOut).toBe(true);
    // "try again" brings the form back
    await userEvent.click(screen.getByRole('button', { name: 'try again' }));
    expect(screen.getByRole('button', { name: 'Sign Up' })).toBeInTheDocument();
  });

  it('sends no redirect when there is none', async () => {
    const { callsTo } = mockApi({ 'POST users/signup': () => ({ status: 202, body: { message: 'Check your e-mail to finish creating your account.' } }) });
    renderWithProviders(<SignUpPage />, { route: '/signup', path: '/signup' });
    await fill({ name: 'Jane', email: 'jane@example.com', password: 'password123', confirm: 'password123' });
    await screen.findByRole('heading', { name: 'Check your e-mail' });
    expect(callsTo('POST users/signup')[0]?.body).toEqual({ name: 'Jane', email: 'jane@example.com', password: 'password123' });
  });

  it("shows the server's message in a red alert", async () => {
    mockApi({ 'POST users/signup': () => ({ status: 429, body: { message: 'Too many attempts. Please try again later.' } }) });
    renderWithProviders(<SignUpPage />, { route: '/signup', path: '/signup' });
    await fill({ name: 'Jane', email: 'jane@example.com', password: 'password123', confirm: 'password123' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Please try again later.');
  });

  it('shows a server field error once, beside its field, not also in an alert', async () => {
    mockApi({
      'POST users/signup': () => ({
        status: 400,
        body: { message: "Invalid body field 'name': NUL characters are not allowed", code: 'VALIDATION_ERROR', fieldErrors: { name: 'NUL characters are not allowed' } },
      }),
    });
    renderWithProviders(<SignUpPage />, { route: '/signup', path: '/signup' });
    await fill({ name: 'Jane', email: 'jane@example.com', password: 'password123', confirm: 'password123' });
    expect(await screen.findByText('NUL characters are not allowed')).toHaveClass('invalid-feedback');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
