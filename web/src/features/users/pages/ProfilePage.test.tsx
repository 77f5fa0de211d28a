import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { customer, makeState, mockApi, renderWithProviders } from '../../../test/render';
import ProfilePage from './ProfilePage';

afterEach(() => vi.unstubAllGlobals());

describe('ProfilePage', () => {
  it('is filled with the signed-in user', () => {
    mockApi({});
    renderWithProviders(<ProfilePage />, { state: makeState({ userInfo: customer }) });
    expect(screen.getByRole('heading', { name: 'User Profile' })).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue('Jane Customer');
    expect(screen.getByLabelText('Email')).toHaveValue('jane@example.com');
    expect(screen.getByLabelText('Password')).toHaveValue('');
  });

  it("checks 'Passwords do not match'", async () => {
    const { calls } = mockApi({});
    renderWithProviders(<ProfilePage />, { state: makeState({ userInfo: customer }) });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Password'), 'newpassword1');
    await user.type(screen.getByLabelText('Confirm Password'), 'newpassword2');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('requires name and email', async () => {
    const { calls } = mockApi({});
    renderWithProviders(<ProfilePage />, { state: makeState({ userInfo: customer }) });
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText('Name'));
    await user.clear(screen.getByLabelText('Email'));
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it("updates with PUT users/profile, replaces the session's user and toasts 'User updated successfully'", async () => {
    const updated = { ...customer, name: 'Jane Doe' };
    const { callsTo } = mockApi({ 'PUT users/profile': () => ({ body: updated }) });
    const { probe } = renderWithProviders(<ProfilePage />, { state: makeState({ userInfo: customer }) });
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText('Name'));
    await user.type(screen.getByLabelText('Name'), 'Jane Doe');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('User updated successfully')).toBeInTheDocument();
    expect(callsTo('PUT users/profile')[0]?.body).toEqual({ name: 'Jane Doe', email: 'jane@example.com', password: '' });
    await waitFor(() => expect(probe.state.userInfo).toEqual(updated));
  });

  it("shows the server's message in a red alert", async () => {
    mockApi({ 'PUT users/profile': () => ({ status: 429, body: { message: 'Too many attempts. Please try again later.' } }) });
    renderWithProviders(<ProfilePage />, { state: makeState({ userInfo: customer }) });
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Please try again later.');
  });

  it('asks for the current password only when the e-mail or the password changes, and requires it then', async () => {
    const { calls } = mockApi({});
    renderWithProviders(<ProfilePage />, { state: makeState({ userInfo: customer }) });
    const user = userEvent.setup();
    expect(screen.queryByLabelText('Current Password')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Password'), 'newpassword1');
    const current = screen.getByLabelText('Current Password');
    expect(current).toHaveAttribute('type', 'password');
    expect(current).toHaveAttribute('autocomplete', 'current-password');
    expect(current).toBeRequired();
    await user.type(screen.getByLabelText('Confirm Password'), 'newpassword1');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Current password is required to change your e-mail or password')).toBeInTheDocument();
    expect(screen.getByLabelText('Current Password')).toHaveAttribute('aria-invalid', 'true');
    expect(calls).toHaveLength(0);

    // Back to no change: the field goes away again.
    await user.clear(screen.getByLabelText('Password'));
    await user.clear(screen.getByLabelText('Confirm Password'));
    expect(screen.queryByLabelText('Current Password')).not.toBeInTheDocument();
    // A new e-mail (not just another letter case) needs it too.
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'JANE@example.com');
    expect(screen.queryByLabelText('Current Password')).not.toBeInTheDocument();
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'jane.new@example.com');
    expect(screen.getByLabelText('Current Password')).toBeInTheDocument();
  });

  it('sends the current password with a new e-mail; a wrong one is shown once, beside the field; then says where the confirmation went', async () => {
    // The server keeps the account's e-mail until the new address confirms it.
    const updated = { ...customer, pendingEmail: 'jane.new@example.com' };
    let attempt = 0;
    const { callsTo } = mockApi({
      'PUT users/profile': () => (++attempt === 1
        ? { status: 401, body: { message: 'Current password is incorrect', code: 'CURRENT_PASSWORD_INCORRECT', fieldErrors: { currentPassword: 'Current password is incorrect' } } }
        : { body: updated }),
    });
    const { probe } = renderWithProviders(<ProfilePage />, { state: makeState({ userInfo: customer }) });
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'jane.new@example.com');
    await user.type(screen.getByLabelText('Current Password'), 'wrong-one');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Current password is incorrect')).toHaveClass('invalid-feedback');
    expect(screen.getAllByText('Current password is incorrect')).toHaveLength(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(callsTo('POST users/refresh-token')).toHaveLength(0);
    expect(probe.state.userInfo).toEqual(customer);

    await user.clear(screen.getByLabelText('Current Password'));
    await user.type(screen.getByLabelText('Current Password'), 'jane1234');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(callsTo('PUT users/profile')[1]?.body).toEqual({ name: 'Jane Customer', email: 'jane.new@example.com', password: '', currentPassword: 'jane1234' });
    // A toast, and an alert that stays: the link went to the new address, the old one stays until it is opened.
    expect(await screen.findByText('Confirmation link sent to jane.new@example.com. Your e-mail stays jane@example.com until you open it.')).toBeInTheDocument();
    const notice = screen.getByRole('status');
    expect(notice).toHaveTextContent(
      'Confirm your new e-mail address. We sent a link to jane.new@example.com. Until you open it (within 24 hours), your account keeps jane@example.com and you sign in with it. We also told jane@example.com about the change.',
    );
    // The session keeps the account as the server has it (no pendingEmail in it), and so does the form.
    expect(probe.state.userInfo).toEqual(customer);
    expect(screen.getByLabelText('Email')).toHaveValue('jane@example.com');
    expect(screen.queryByLabelText('Current Password')).not.toBeInTheDocument();
    expect(screen.queryByText('User updated successfully')).not.toBeInTheDocument();
  });

  it('shows a server field error (e-mail in use) beside the field only', async () => {
    mockApi({
      'PUT users/profile': () => ({ status: 409, body: { message: 'Email is already in use by another account', fieldErrors: { email: 'Email is already in use by another account' } } }),
    });
    renderWithProviders(<ProfilePage />, { state: makeState({ userInfo: customer }) });
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'taken@example.com');
    await user.type(screen.getByLabelText('Current Password'), 'jane1234');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Email is already in use by another account')).toHaveClass('invalid-feedback');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
