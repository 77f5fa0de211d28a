import type { AdminUser, UserListResponse } from '@shop/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { toast } from 'react-toastify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { admin, emailText, mockApi } from '../../../test/render';
import { makeState, renderWithProviders } from '../../../test/cart-utils';
import UserEditPage from './UserEditPage';
import UserListPage from './UserListPage';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));

const ann: AdminUser = { _id: 'dddddddddddddddddddddddd', name: 'Ann Buyer', email: 'ann@example.com', isAdmin: false, createdAt: '2026-02-03T10:00:00.000Z', numOrders: 4 };
const list = (users: AdminUser[], extra: Partial<UserListResponse> = {}): UserListResponse => ({ users, page: 1, pages: 1, countUsers: users.length, ...extra });

beforeEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

describe('UserListPage', () => {
  it('lists users with admin flag, joined date and orders; searches on the server; deletes after confirmation', async () => {
    let users = [ann];
    const urls: URL[] = [];
    const api = mockApi({
      'GET users': (_b, url) => { urls.push(url); return { body: list(users, { pages: 2 }) }; },
      [`DELETE users/${ann._id}`]: () => { users = []; return { body: { message: 'User deleted successfully' } }; },
    });
    renderWithProviders(<UserListPage />, { state: makeState({ userInfo: admin }), route: '/admin/users' });
    const row = (await screen.findByText('Ann Buyer')).closest('tr')!;
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Ann Buyer', 'ann@example.com', 'NO', '2026-02-03', '4', 'EditDelete']);
    expect(within(row).getByRole('link', { name: 'Edit Ann Buyer' })).toHaveAttribute('href', `/admin/user/${ann._id}`);
    await userEvent.type(screen.getByLabelText('Search users by name or e-mail'), 'ann');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(urls.at(-1)!.searchParams.get('search')).toBe('ann'));
    await userEvent.click(screen.getByRole('button', { name: 'Delete Ann Buyer' }));
    const dialog = await screen.findByRole('dialog');
    expect(api.callsTo(`DELETE users/${ann._id}`)).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('User deleted successfully'));
    expect(await screen.findByText('No users found')).toBeInTheDocument();
  });

  it('offers no Delete on your own row', async () => {
    const me: AdminUser = { ...ann, _id: admin._id, name: 'Admin', email: admin.email, isAdmin: true };
    mockApi({ 'GET users': () => ({ body: list([me, ann]) }) });
    renderWithProviders(<UserListPage />, { state: makeState({ userInfo: admin }), route: '/admin/users' });
    const mine = (await screen.findByText(emailText('admin@example.com'))).closest('tr')!;
    expect(within(mine).queryByRole('button', { name: /Delete/ })).toBeNull();
    expect(within(mine).getByText('(you)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete Ann Buyer' })).toBeInTheDocument();
  });
});

const renderEdit = (route: string) =>
  renderWithProviders(
    <Routes>
      <Route path="/admin/user/:id" element={<UserEditPage />} />
      <Route path="/admin/user" element={<UserEditPage />} />
      <Route path="*" element={<div>elsewhere</div>} />
    </Routes>,
    { state: makeState({ userInfo: admin }), route },
  );

describe('UserEditPage', () => {
  it('loads the user, validates, and saves name, e-mail and admin flag', async () => {
    const api = mockApi({
      [`GET users/${ann._id}`]: () => ({ body: ann }),
      [`PUT users/${ann._id}`]: (body) => ({ body: { message: 'User updated successfully', user: { ...ann, ...(body as object) } } }),
    });
    renderEdit(`/admin/user/${ann._id}`);
    const name = await screen.findByLabelText('Name');
    await waitFor(() => expect(name).toHaveValue('Ann Buyer'));
    await userEvent.clear(name);
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(toast.error).toHaveBeenCalledWith('Please fill all fields correctly!');
    expect(screen.getByText('Name is required')).toBeInTheDocument();
    expect(api.callsTo(`PUT users/${ann._id}`)).toHaveLength(0);
    await userEvent.type(name, 'Ann B.');
    await userEvent.click(screen.getByLabelText('Administrator'));
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('User updated successfully'));
    expect(api.callsTo(`PUT users/${ann._id}`)[0]!.body).toEqual({ id: ann._id, name: 'Ann B.', email: 'ann@example.com', isAdmin: true });
  });

  it('shows the server conflict message (e.g. the last administrator)', async () => {
    mockApi({
      [`GET users/${ann._id}`]: () => ({ body: { ...ann, isAdmin: true } }),
      [`PUT users/${ann._id}`]: () => ({ status: 409, body: { message: 'The last administrator cannot be deleted or demoted' } }),
    });
    renderEdit(`/admin/user/${ann._id}`);
    await waitFor(() => expect(screen.getByLabelText('Administrator')).toBeChecked());
    await userEvent.click(screen.getByLabelText('Administrator'));
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('The last administrator cannot be deleted or demoted'));
  });

  it('creates a user without a password field', async () => {
    const api = mockApi({ 'POST users': () => ({ status: 201, body: { message: 'User created. A set-password e-mail is on its way.', user: ann } }) });
    renderEdit('/admin/user');
    expect(screen.queryByLabelText(/password/i)).toBeNull();
    await userEvent.type(screen.getByLabelText('Name'), 'New Person');
    await userEvent.type(screen.getByLabelText('Email'), 'new@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.getByText('elsewhere')).toBeInTheDocument());
    expect(api.callsTo('POST users')[0]!.body).toEqual({ name: 'New Person', email: 'new@example.com', isAdmin: false });
  });
});
