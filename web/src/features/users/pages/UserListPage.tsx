import { USER_MESSAGES, type AdminUser } from '@shop/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from '../../../lib/toast';
import { paths } from '../../../lib/paths';
import { useStore } from '../../../lib/store';
import { AdminPageHeader } from '../../../components/admin/AdminPageHeader';
import { AdminTable } from '../../../components/admin/AdminTable';
import { ListSearchForm } from '../../../components/admin/ListSearchForm';
import { ListState } from '../../../components/admin/ListState';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { getErrorMessage } from '../../../lib/api-client';
import { formatShortDate } from '../../../lib/format';
import { useListQueryParams } from '../../../lib/use-list-query-params';
import { useUsers } from '../api/get-users';
import { useDeleteUser } from '../api/manage-user';
import { EmailText } from '../../../components/EmailText';

const DEFAULTS = { search: '' };

export default function UserListPage() {
  const { page, values, update, hrefFor } = useListQueryParams(DEFAULTS);
  const { search } = values;
  const { data, isPending, error, isPlaceholderData } = useUsers(page, search);
  const deleteUser = useDeleteUser();
  const { state } = useStore();
  const myId = state.userInfo?._id;
  const [toDelete, setToDelete] = useState<AdminUser | null>(null);
  const [isDeleteOpen, setDeleteOpen] = useState(false);

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
      <AdminPageHeader title="Users">
        <Link to={paths.admin.newUser} className="btn btn-primary">Create User</Link>
      </AdminPageHeader>
      <ListSearchForm id="user-search" label="Search users by name or e-mail" placeholder="Search by name or e-mail" value={search} onSearch={(text) => update({ search: text })} />
      <ListState
        isPending={isPending}
        error={error}
        isEmpty={!data || data.users.length === 0}
        empty="No users found"
        paging={data && { page, pages: data.pages, hrefFor, label: 'User pages' }}
      >
        {() => (
          <>
            <p className="text-body-secondary small mb-2">{data!.countUsers} users</p>
            <AdminTable stacked columns={['NAME', 'EMAIL', 'ADMIN', 'JOINED', 'ORDERS', 'ACTIONS']} busy={isPlaceholderData}>
              {data!.users.map((user) => (
                <tr key={user._id}>
                  <td data-label="NAME">{user.name}</td>
                  <td data-label="EMAIL"><EmailText email={user.email} /></td>
                  <td data-label="ADMIN">{user.isAdmin ? 'YES' : 'NO'}</td>
                  <td data-label="JOINED" className="text-nowrap">{formatShortDate(user.createdAt)}</td>
                  <td data-label="ORDERS">{user.numOrders}</td>
                  <td data-label="ACTIONS" className="text-nowrap">
                    <Link to={paths.admin.user(user._id)} className="btn btn-light btn-sm border me-2" aria-label={`Edit ${user.name}`}>
                      Edit
                    </Link>
                    {user._id === myId ? (
                      <span className="small text-body-secondary">(you)</span>
                    ) : (
                      <button type="button" className="btn btn-danger btn-sm" aria-label={`Delete ${user.name}`} onClick={() => { setToDelete(user); setDeleteOpen(true); }}>
                        Delete
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </AdminTable>
          </>
        )}
      </ListState>
      <ConfirmDialog show={isDeleteOpen} title="Delete User" isPending={deleteUser.isPending} onConfirm={() => void confirmDelete()} onCancel={() => setDeleteOpen(false)}>
        Are you sure to delete {toDelete?.name ?? 'this user'}? Their cart and addresses are removed and they are signed out; their orders stay.
      </ConfirmDialog>
    </>
  );
}
