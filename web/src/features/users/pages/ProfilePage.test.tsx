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
    mockApi({ 'PUT users/profile': () => ({ status: 409, body: { message: 'Email is already in use by another account' } }) });
    renderWithProviders(<ProfilePage />, { state: makeState({ userInfo: customer }) });
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Email is already in use by another account');
  });
});
