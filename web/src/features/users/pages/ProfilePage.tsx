import { EMAIL_CHANGE_TOKEN_TTL_HOURS } from '@shop/contracts/constants';
import type { User } from '@shop/contracts';
import { useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from '../../../lib/toast';
import { useStore } from '../../../lib/store';
import { MessageBox } from '../../../components/MessageBox';
import { useUpdateProfile } from '../api/update-profile';
import { alertMessageFor, applyFieldErrors, AuthCard, FormField, SubmitButton, useReplaceSessionUser } from '../../auth';
import { lazyResolver } from '../../../lib/lazy-resolver';
import { changesCredentials } from '../lib/credentials';
import type { ProfileForm } from '../lib/profile-schema';

const FIELDS = ['name', 'email', 'password', 'currentPassword'] as const;

/** A change of e-mail waiting for the new address to confirm it (this visit only: the server keeps it, not the page). */
interface PendingEmail {
  newEmail: string;
  currentEmail: string;
}

/** What the page says after asking for a new e-mail: where the link went, and that nothing changed yet. */
function PendingEmailNotice({ pending }: { pending: PendingEmail }) {
  return (
    <MessageBox variant="info">
      <strong>Confirm your new e-mail address.</strong> We sent a link to <strong className="text-break">{pending.newEmail}</strong>. Until you open
      it (within {EMAIL_CHANGE_TOKEN_TTL_HOURS} hours), your account keeps <strong className="text-break">{pending.currentEmail}</strong> and you sign
      in with it. We also told {pending.currentEmail} about the change.
    </MessageBox>
  );
}

function ProfileFormView({ user }: { user: User }) {
  const update = useUpdateProfile();
  const [pending, setPending] = useState<PendingEmail | null>(null);
  const replaceSessionUser = useReplaceSessionUser();
  const resolver = useMemo(
    () => lazyResolver(() => import('../lib/profile-schema').then((m) => m.profileResolver(user.email))),
    [user.email],
  );
  const {
    register,
    handleSubmit,
    setError,
    resetField,
    control,
    formState: { errors },
  } = useForm<ProfileForm>({
    resolver,
    defaultValues: { name: user.name, email: user.email, password: '', confirmPassword: '', currentPassword: '' },
  });
  const [email, password] = useWatch({ control, name: ['email', 'password'] });
  const needsCurrentPassword = changesCredentials({ email, password }, user.email);

  const onSubmit = handleSubmit(({ name, email: newEmail, password: newPassword, currentPassword }) =>
    update.mutate(
      { name, email: newEmail, password: newPassword, ...(needsCurrentPassword ? { currentPassword } : {}) },
      {
        onSuccess: ({ pendingEmail, ...updated }) => {
          replaceSessionUser(updated);
          resetField('password');
          resetField('confirmPassword');
          resetField('currentPassword');
          if (pendingEmail) {
            // The account keeps its address until the link is opened: the field shows it again.
            resetField('email', { defaultValue: updated.email });
            setPending({ newEmail: pendingEmail, currentEmail: updated.email });
            toast.info(`Confirmation link sent to ${pendingEmail}. Your e-mail stays ${updated.email} until you open it.`);
          } else {
            toast.success('User updated successfully');
          }
        },
        onError: (error) => applyFieldErrors(error, setError, FIELDS),
      },
    ),
  );
  const alert = update.isError ? alertMessageFor(update.error, FIELDS) : null;

  return (
    <>
      {alert && <MessageBox variant="danger">{alert}</MessageBox>}
      {pending && <PendingEmailNotice pending={pending} />}
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
