import { USER_MESSAGES, type AdminUser } from '@shop/contracts';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { toast } from 'react-toastify';
import { paths } from '../../../app/paths';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { LoadingBox } from '../../../components/LoadingBox';
import { MessageBox } from '../../../components/MessageBox';
import { PageTitle } from '../../../components/PageTitle';
import { Paginator } from '../../../components/Paginator';
import { getErrorMessage } from '../../../lib/api-client';
import { formatShortDate } from '../../../lib/format';
import { useUsers } from '../api/get-users';
import { useDeleteUser } from '../api/manage-user';

const listUrl = (page: number, search: string) => {
  const qs = new URLSearchParams();
  if (search) qs.set('search', search);
  if (page > 1) qs.set('page', String(page));
  const s = qs.toString();
  return s ? `${paths.admin.users}?${s}` : paths.admin.users;
};

export default function UserListPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const page = Math.max(1, Number(searchParams.get('page')) || 1);
  const search = searchParams.get('search') ?? '';
  const [draft, setDraft] = useState(search);
  const { data, isPending, error, isPlaceholderData } = useUsers(page, search);
  const deleteUser = useDeleteUser();
  const [toDelete, setToDelete] = useState<AdminUser | null>(null);
  const [isDeleteOpen, setDeleteOpen] = useState(false);

  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    const next = new URLSearchParams();
    if (draft.trim()) next.set('search', draft.trim());
    setSearchParams(next);
  };

  const confirmDelete = async () => {
    if (!toDelete) return;
    try {
      await deleteUser.mutateAsync(toDelete._id);
      toast.success(USER_MESSAGES.deleted);
    } catch (err) {
      toast.error(getErrorMessage(err));
    } finally {
      setDeleteOpen(false);
    }
  };

  return (
    <>
      <div className="d-flex flex-wrap justify-content-between align-items-center gap-2">
        <PageTitle title="Users" />
        <Link to={paths.admin.newUser} className="btn btn-primary">Create User</Link>
      </div>
      <form role="search" className="d-flex gap-2 my-3" onSubmit={onSearch}>
        <label htmlFor="user-search" className="visually-hidden">Search users by name or e-mail</label>
        <input id="user-search" type="search" className="form-control" placeholder="Search by name or e-mail" value={draft} onChange={(e) => setDraft(e.target.value)} maxLength={200} />
        <button type="submit" className="btn btn-outline-primary">Search</button>
      </form>
      {isPending ? (
        <LoadingBox />
      ) : error ? (
        <MessageBox variant="danger">{getErrorMessage(error)}</MessageBox>
      ) : data.users.length === 0 ? (
        <MessageBox>No users found</MessageBox>
      ) : (
        <>
          <p className="text-body-secondary small mb-2">{data.countUsers} users</p>
          <div className="table-responsive">
            <table className="table table-hover align-middle" aria-busy={isPlaceholderData}>
              <thead>
                <tr>
                  <th scope="col">NAME</th>
                  <th scope="col">EMAIL</th>
                  <th scope="col">ADMIN</th>
                  <th scope="col">JOINED</th>
                  <th scope="col">ORDERS</th>
                  <th scope="col">ACTIONS</th>
                </tr>
              </thead>
              <tbody>
                {data.users.map((user) => (
                  <tr key={user._id}>
                    <td>{user.name}</td>
                    <td className="text-break">{user.email}</td>
                    <td>{user.isAdmin ? 'YES' : 'NO'}</td>
                    <td className="text-nowrap">{formatShortDate(user.createdAt)}</td>
                    <td>{user.numOrders}</td>
                    <td className="text-nowrap">
                      <Link to={paths.admin.user(user._id)} className="btn btn-light btn-sm border me-2" aria-label={`Edit ${user.name}`}>
                        Edit
                      </Link>
                      <button type="button" className="btn btn-danger btn-sm" aria-label={`Delete ${user.name}`} onClick={() => { setToDelete(user); setDeleteOpen(true); }}>
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Paginator page={page} pages={data.pages} hrefFor={(n) => listUrl(n, search)} label="User pages" />
        </>
      )}
      <ConfirmDialog show={isDeleteOpen} title="Delete User" isPending={deleteUser.isPending} onConfirm={() => void confirmDelete()} onCancel={() => setDeleteOpen(false)}>
        Are you sure to delete {toDelete?.name ?? 'this user'}? Their cart and addresses are removed and they are signed out; their orders stay.
      </ConfirmDialog>
    </>
  );
}
