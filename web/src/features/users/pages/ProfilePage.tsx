import { zodResolver } from '@hookform/resolvers/zod';
import type { User } from '@shop/contracts';
import { PASSWORD_MIN, PASSWORDS_DO_NOT_MATCH } from '@shop/contracts/constants';
import { useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { useStore } from '../../../app/store';
import { MessageBox } from '../../../components/MessageBox';
import { getErrorMessage } from '../../../lib/api-client';
import { useUpdateProfile } from '../api/update-profile';
import { useReplaceSessionUser } from '../../auth/hooks/use-session-user';
import { AuthCard } from '../../auth/components/AuthCard';
import { FormField } from '../../auth/components/FormField';
import { SubmitButton } from '../../auth/components/SubmitButton';
import { applyFieldErrors } from '../../auth/lib/apply-field-errors';
import { requiredEmail, requiredName } from '../../auth/lib/schemas';

/** SPEC section 5: name and email required; password may be empty; password and confirm must match. */
const profileFormSchema = z
  .object({
    name: requiredName,
    email: requiredEmail,
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
        onError: (error) => applyFieldErrors(error, setError, FIELDS),
      },
    ),
  );

  return (
    <>
      {update.isError && <MessageBox variant="danger">{getErrorMessage(update.error)}</MessageBox>}
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
