import { zodResolver } from '@hookform/resolvers/zod';
import type { User } from '@shop/contracts';
import { CURRENT_PASSWORD_REQUIRED, PASSWORD_MIN, PASSWORDS_DO_NOT_MATCH } from '@shop/contracts/constants';
import { useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { useStore } from '../../../app/store';
import { MessageBox } from '../../../components/MessageBox';
import { useUpdateProfile } from '../api/update-profile';
import { useReplaceSessionUser } from '../../auth/hooks/use-session-user';
import { AuthCard } from '../../auth/components/AuthCard';
import { FormField } from '../../auth/components/FormField';
import { SubmitButton } from '../../auth/components/SubmitButton';
import { alertMessageFor, applyFieldErrors } from '../../auth/lib/apply-field-errors';
import { requiredEmail, requiredName } from '../../auth/lib/schemas';

/** Whether the form changes the e-mail or the password: the changes that need the current password. */
const changesCredentials = (v: { email?: string; password?: string }, currentEmail: string) =>
  !!v.password || (v.email ?? '').trim().toLowerCase() !== currentEmail.toLowerCase();

/**
 * SPEC section 5: name and email required; password may be empty; password and confirm must match.
 * Changing the e-mail or the password also needs the current password.
 */
function profileFormSchema(currentEmail: string) {
  return z
    .object({
      name: requiredName,
      email: requiredEmail,
      password: z.string().refine((v) => v === '' || v.length >= PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`),
      confirmPassword: z.string(),
      currentPassword: z.string(),
    })
    .refine((v) => v.password === v.confirmPassword, {
      message: PASSWORDS_DO_NOT_MATCH,
      path: ['confirmPassword'],
      when: (payload) => {
        const v = payload.value as { password?: unknown; confirmPassword?: unknown };
        return typeof v.password === 'string' && typeof v.confirmPassword === 'string';
      },
    })
    .refine((v) => !changesCredentials(v, currentEmail) || v.currentPassword !== '', {
      message: CURRENT_PASSWORD_REQUIRED,
      path: ['currentPassword'],
      when: (payload) => {
        const v = payload.value as { email?: unknown; password?: unknown; currentPassword?: unknown };
        return typeof v.email === 'string' && typeof v.password === 'string' && typeof v.currentPassword === 'string';
      },
    });
}
type ProfileForm = z.infer<ReturnType<typeof profileFormSchema>>;
const FIELDS = ['name', 'email', 'password', 'currentPassword'] as const;

function ProfileFormView({ user }: { user: User }) {
  const update = useUpdateProfile();
  const replaceSessionUser = useReplaceSessionUser();
  const schema = useMemo(() => profileFormSchema(user.email), [user.email]);
  const {
    register,
    handleSubmit,
    setError,
    resetField,
    control,
    formState: { errors },
  } = useForm<ProfileForm>({
    resolver: zodResolver(schema),
    defaultValues: { name: user.name, email: user.email, password: '', confirmPassword: '', currentPassword: '' },
  });
  const [email, password] = useWatch({ control, name: ['email', 'password'] });
  const needsCurrentPassword = changesCredentials({ email, password }, user.email);

  const onSubmit = handleSubmit(({ name, email: newEmail, password: newPassword, currentPassword }) =>
    update.mutate(
      { name, email: newEmail, password: newPassword, ...(needsCurrentPassword ? { currentPassword } : {}) },
      {
        onSuccess: (updated) => {
          replaceSessionUser(updated);
          resetField('password');
          resetField('confirmPassword');
          resetField('currentPassword');
          toast.success('User updated successfully');
        },
        onError: (error) => applyFieldErrors(error, setError, FIELDS),
      },
    ),
  );
  const alert = update.isError ? alertMessageFor(update.error, FIELDS) : null;

  return (
    <>
      {alert && <MessageBox variant="danger">{alert}</MessageBox>}
      <form onSubmit={onSubmit} noValidate>
        <FormField id="profile-name" label="Name" type="text" autoComplete="name" registration={register('name')} error={errors.name} />
        <FormField id="profile-email" label="Email" type="email" autoComplete="email" registration={register('email')} error={errors.email} />
        <FormField
          id="profile-password"
          label="Password"
          type="password"
          autoComplete="new-password"
          placeholder="Leave blank to keep your password"
          registration={register('password')}
          error={errors.password}
        />
        <FormField
          id="profile-confirm-password"
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
          registration={register('confirmPassword')}
          error={errors.confirmPassword}
        />
        {needsCurrentPassword && (
          <FormField
            id="profile-current-password"
            label="Current Password"
            type="password"
            autoComplete="current-password"
            required
            aria-required="true"
            registration={register('currentPassword')}
            error={errors.currentPassword}
          />
        )}
        <SubmitButton isPending={update.isPending} className="btn btn-primary">
          Update
        </SubmitButton>
      </form>
    </>
  );
}

/** User Profile (/profile): name, email, password, confirm password, Update. The returned user replaces the session. */
export default function ProfilePage() {
  const { state } = useStore();
  return (
    <AuthCard title="User Profile">
      {state.userInfo && <ProfileFormView key={state.userInfo._id} user={state.userInfo} />}
    </AuthCard>
  );
}
