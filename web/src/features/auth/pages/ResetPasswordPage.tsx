import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Redirect } from '../components/guards';
import { toast } from '../../../lib/toast';
import { MessageBox } from '../../../components/MessageBox';
import { useResetPassword } from '../api/reset-password';
import { AuthCard } from '../components/AuthCard';
import { FormField } from '../components/FormField';
import { SubmitButton } from '../components/SubmitButton';
import { alertMessageFor, applyFieldErrors } from '../lib/apply-field-errors';
import type { ResetPasswordForm } from '../lib/schemas';
import { lazyResolver } from '../../../lib/lazy-resolver';

/** SPEC section 9: after a successful reset the user goes to /signin after 1.5 s. */
export const RESET_REDIRECT_DELAY_MS = 1500;

const resolver = lazyResolver(() => import('../lib/resolvers').then((m) => m.resetPasswordResolver));

/** Reset password with ?token (no token: /; signed-in users are sent to / by the route guard). */
export default function ResetPasswordPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  const navigate = useNavigate();
  const reset = useResetPassword();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ResetPasswordForm>({ resolver, defaultValues: { password: '', confirmPassword: '' } });

  const isDone = reset.isSuccess;
  useEffect(() => {
    if (!isDone) return;
    const timer = window.setTimeout(() => navigate('/signin'), RESET_REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [isDone, navigate]);

  if (!token) return <Redirect to="/" replace />;

  const onSubmit = handleSubmit(({ password }) =>
    reset.mutate(
      { token, password },
      {
        onSuccess: (data) => toast.success(data.message),
        onError: (error) => applyFieldErrors(error, setError, ['password']),
      },
    ),
  );

  return (
    <AuthCard title="Reset Password">
      {reset.isSuccess && <MessageBox variant="success">{reset.data.message}</MessageBox>}
      {reset.isError && alertMessageFor(reset.error, ['password']) && (
        <MessageBox variant="danger">
          {alertMessageFor(reset.error, ['password'])} <Link to="/forgot-password">Request a new link</Link>
        </MessageBox>
      )}
      <form onSubmit={onSubmit} noValidate>
        <FormField id="reset-password" label="New Password" type="password" autoComplete="new-password" registration={register('password')} error={errors.password} />
        <FormField
          id="reset-confirm-password"
          label="Confirm New Password"
          type="password"
          autoComplete="new-password"
          registration={register('confirmPassword')}
          error={errors.confirmPassword}
        />
        <SubmitButton isPending={reset.isPending || isDone}>Reset Password</SubmitButton>
      </form>
    </AuthCard>
  );
}
