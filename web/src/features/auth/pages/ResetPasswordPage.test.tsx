import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderWithProviders } from '../../../test/render';
import ResetPasswordPage from './ResetPasswordPage';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('ResetPasswordPage', () => {
  it('without a token goes to /', async () => {
    mockApi({});
    renderWithProviders(<ResetPasswordPage />, { route: '/reset-password', path: '/reset-password' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it("checks that the passwords match ('Passwords do not match')", async () => {
    const { calls } = mockApi({});
    renderWithProviders(<ResetPasswordPage />, { route: '/reset-password?token=abc', path: '/reset-password' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('New Password'), 'newpassword1');
    await user.type(screen.getByLabelText('Confirm New Password'), 'newpassword2');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('sends token and password, toasts the message and goes to /signin after 1.5 s', async () => {
    const { callsTo } = mockApi({ 'POST users/reset-password': () => ({ body: { message: 'Password has been reset. You can now sign in.' } }) });
    renderWithProviders(<ResetPasswordPage />, { route: '/reset-password?token=abc123', path: '/reset-password' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('New Password'), 'newpassword1');
    await user.type(screen.getByLabelText('Confirm New Password'), 'newpassword1');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findAllByText('Password has been reset. You can now sign in.')).not.toHaveLength(0);
    expect(callsTo('POST users/reset-password')[0]?.body).toEqual({ token: 'abc123', password: 'newpassword1' });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1400);
    });
    expect(screen.getByTestId('location')).toHaveTextContent('/reset-password');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(200);
    });
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/signin$/);
  });

  it('shows an invalid or expired token in a red alert', async () => {
    mockApi({ 'POST users/reset-password': () => ({ status: 400, body: { message: 'Password reset link is invalid or has expired' } }) });
    renderWithProviders(<ResetPasswordPage />, { route: '/reset-password?token=used', path: '/reset-password' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('New Password'), 'newpassword1');
    await user.type(screen.getByLabelText('Confirm New Password'), 'newpassword1');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Password reset link is invalid or has expired');
  });
});
