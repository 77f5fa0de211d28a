import { DevMailboxLink } from '../../dev-mailbox';
import { USER_MESSAGES, adminUpdateUserBodySchema } from '@shop/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from '../../../lib/toast';
import { paths } from '../../../lib/paths';
import { TextSkeleton } from '../../../components/Skeleton';
import { MessageBox } from '../../../components/MessageBox';
import { PageTitle } from '../../../components/PageTitle';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { useUser } from '../api/get-users';
import { useCreateUser, useUpdateUser } from '../api/manage-user';

interface FormState { name: string; email: string; isAdmin: boolean }

/** /admin/user/:id edits a user; /admin/user creates one (the person sets a password from a mailed link). */
export default function UserEditPage() {
  const { id } = useParams();
  const isNew = !id;
  const navigate = useNavigate();
  const user = useUser(id);
  const updateUser = useUpdateUser();
  const createUser = useCreateUser();
  const [form, setForm] = useState<FormState>({ name: '', email: '', isAdmin: false });
  const [errors, setErrors] = useState<Partial<Record<keyof FormState, string>>>({});

  useEffect(() => {
    if (user.data) setForm({ name: user.data.name, email: user.data.email, isAdmin: user.data.isAdmin });
  }, [user.data]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = adminUpdateUserBodySchema.safeParse(form);
    if (!parsed.success) {
      const next: Partial<Record<keyof FormState, string>> = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as keyof FormState] ??= issue.message;
      setErrors(next);
      toast.error(USER_MESSAGES.formInvalid);
      return;
    }
    setErrors({});
    try {
      if (isNew) {
        const res = await createUser.mutateAsync(parsed.data);
        toast.success(res.message);
      } else {
        await updateUser.mutateAsync({ ...parsed.data, id });
        toast.success(USER_MESSAGES.updated);
      }
      navigate(paths.admin.users);
    } catch (err) {
      if (err instanceof ApiError && err.fieldErrors) setErrors(err.fieldErrors);
      toast.error(err instanceof ApiError && err.status === 409 ? err.message : `${USER_MESSAGES.formInvalid} ${getErrorMessage(err)}`);
    }
  };

  const isSaving = updateUser.isPending || createUser.isPending;
  const title = isNew ? 'Create User' : `Edit User ${id}`;
  return (
    <div className="mx-auto" style={{ maxWidth: 600 }}>
      <PageTitle title={title} />
      {isNew && <DevMailboxLink />}
      {!isNew && user.isPending ? (
        <TextSkeleton lines={4} />
      ) : !isNew && user.error ? (
        <MessageBox variant="danger">{getErrorMessage(user.error)}</MessageBox>
      ) : (
        <form noValidate onSubmit={(e) => void onSubmit(e)}>
          <div className="mb-3">
            <label htmlFor="user-name" className="form-label">Name</label>
            <input id="user-name" className={`form-control${errors.name ? ' is-invalid' : ''}`} value={form.name} required maxLength={100}
              aria-invalid={Boolean(errors.name)} aria-describedby={errors.name ? 'user-name-error' : undefined}
              onChange={(e) => setForm({ ...form, name: e.target.value })} />
            {errors.name && <div id="user-name-error" className="invalid-feedback">{errors.name}</div>}
          </div>
          <div className="mb-3">
            <label htmlFor="user-email" className="form-label">Email</label>
            <input id="user-email" type="email" className={`form-control${errors.email ? ' is-invalid' : ''}`} value={form.email} required
              aria-invalid={Boolean(errors.email)}
              aria-describedby={[errors.email ? 'user-email-error' : '', isNew ? '' : 'user-email-help'].filter(Boolean).join(' ') || undefined}
              onChange={(e) => setForm({ ...form, email: e.target.value })} />
            {errors.email && <div id="user-email-error" className="invalid-feedback">{errors.email}</div>}
            {!isNew && (
              <div id="user-email-help" className="form-text">
                A new address takes effect at once (no confirmation); the old address is told of the change.
              </div>
            )}
          </div>
          <div className="form-check mb-3">
            <input id="user-is-admin" type="checkbox" className="form-check-input" checked={form.isAdmin} onChange={(e) => setForm({ ...form, isAdmin: e.target.checked })} />
            <label htmlFor="user-is-admin" className="form-check-label">Administrator</label>
          </div>
          {isNew && <p className="text-body-secondary small">The new user gets an e-mail with a link to choose their password.</p>}
          <div className="d-flex gap-2">
            <button type="submit" className="btn btn-primary" disabled={isSaving}>{isNew ? 'Create' : 'Update'}</button>
            <Link to={paths.admin.users} className="btn btn-outline-secondary">Back</Link>
          </div>
        </form>
      )}
    </div>
  );
}
