import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { customer, makeState, mockApi, renderWithProviders } from '../../../test/render';
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

  it('signs the new user in (USER_SIGNIN) and goes to ?redirect', async () => {
    const { callsTo } = mockApi({ 'POST users/signup': () => ({ status: 201, body: customer }) });
    const { probe } = renderWithProviders(<SignUpPage />, { route: '/signup?redirect=/shipping', path: '/signup', state: makeState({ isLoggedOut: true }) });
    await fill({ name: 'Jane Customer', email: 'jane@example.com', password: 'password123', confirm: 'password123' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/shipping'));
    expect(callsTo('POST users/signup')[0]?.body).toEqual({ name: 'Jane Customer', email: 'jane@example.com', password: 'password123' });
    expect(probe.state.userInfo).toEqual(customer);
    expect(probe.state.isLoggedOut).toBe(false);
  });

  it("shows the server's message in a red alert", async () => {
    mockApi({ 'POST users/signup': () => ({ status: 409, body: { message: 'User already exists' } }) });
    renderWithProviders(<SignUpPage />, { route: '/signup', path: '/signup' });
    await fill({ name: 'Jane', email: 'jane@example.com', password: 'password123', confirm: 'password123' });
    expect(await screen.findByRole('alert')).toHaveTextContent('User already exists');
  });
});
