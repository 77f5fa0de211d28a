import { zodResolver } from '@hookform/resolvers/zod';
import { PASSWORD_MIN, type User } from '@shop/contracts';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { useStore } from '../../../app/store';
import { MessageBox } from '../../../components/MessageBox';
import { PageTitle } from '../../../components/PageTitle';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { useUpdateProfile } from '../api/update-profile';
import { useReplaceSessionUser } from '../../auth/hooks/use-session';

const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';

/** SPEC section 5: name and email required; password may be empty; password and confirm must match. */
const profileFormSchema = z
  .object({
    name: z.string().trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters'),
    email: z.string().trim().min(1, 'Email is required').pipe(z.email('Please enter a valid email address')),
    password: z.string().refine((v) => v === '' || v.length >= PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`),
    confirmPassword: z.string(),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: PASSWORDS_DO_NOT_MATCH,
    path: ['confirmPassword'],
    when: (payload) => {
      const v = payload.value as { password?: unknown; confirmPassword?: unknown };
      return typeof v.password === 'string' && typeof v.confirmPassword === 'string';
    },
  });
type ProfileForm = z.infer<typeof profileFormSchema>;
const FIELDS = ['name', 'email', 'password'] as const;

function Field({ id, label, error, children }: { id: string; label: string; error?: string | undefined; children: ReactNode }) {
  return (
    <div className="mb-3">
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      {children}
      {error && (
        <div id={`${id}-error`} className="invalid-feedback">
          {error}
        </div>
      )}
    </div>
  );
}

function ProfileFormView({ user }: { user: User }) {
  const update = useUpdateProfile();
  const replaceSessionUser = useReplaceSessionUser();
  const {
    register,
    handleSubmit,
    setError,
    resetField,
    formState: { errors },
  } = useForm<ProfileForm>({
    resolver: zodResolver(profileFormSchema),
    defaultValues: { name: user.name, email: user.email, password: '', confirmPassword: '' },
  });

  const onSubmit = handleSubmit(({ name, email, password }) =>
    update.mutate(
      { name, email, password },
      {
        onSuccess: (updated) => {
          replaceSessionUser(updated);
          resetField('password');
          resetField('confirmPassword');
          toast.success('User updated successfully');
        },
        onError: (error) => {
          if (error instanceof ApiError && error.fieldErrors) {
            for (const [field, message] of Object.entries(error.fieldErrors)) {
              if ((FIELDS as readonly string[]).includes(field)) setError(field as (typeof FIELDS)[number], { type: 'server', message });
            }
          }
        },
      },
    ),
  );

  const inputProps = (name: keyof ProfileForm, id: string) => ({
    id,
    className: `form-control ${errors[name] ? 'is-invalid' : ''}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-error` : undefined,
    ...register(name),
  });

  return (
    <>
      {update.isError && <MessageBox variant="danger">{getErrorMessage(update.error)}</MessageBox>}
      <form onSubmit={onSubmit} noValidate>
        <Field id="profile-name" label="Name" error={errors.name?.message}>
          <input type="text" autoComplete="name" {...inputProps('name', 'profile-name')} />
        </Field>
        <Field id="profile-email" label="Email" error={errors.email?.message}>
          <input type="email" autoComplete="email" {...inputProps('email', 'profile-email')} />
        </Field>
        <Field id="profile-password" label="Password" error={errors.password?.message}>
          <input type="password" autoComplete="new-password" placeholder="Leave blank to keep your password" {...inputProps('password', 'profile-password')} />
        </Field>
        <Field id="profile-confirm-password" label="Confirm Password" error={errors.confirmPassword?.message}>
          <input type="password" autoComplete="new-password" {...inputProps('confirmPassword', 'profile-confirm-password')} />
        </Field>
        <button type="submit" className="btn btn-primary" disabled={update.isPending} aria-busy={update.isPending || undefined}>
          {update.isPending && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
          Update
        </button>
      </form>
    </>
  );
}

/** User Profile (/profile): name, email, password, confirm password, Update. The returned user replaces the session. */
export default function ProfilePage() {
  const { state } = useStore();
  return (
    <div className="shop-auth-card mx-auto my-3">
      <PageTitle title="User Profile" />
      {state.userInfo && <ProfileFormView key={state.userInfo._id} user={state.userInfo} />}
    </div>
  );
}
