import { useForm } from 'react-hook-form';
import { DevMailboxLink } from '../../dev-mailbox';
import { Link } from 'react-router';
import { MessageBox } from '../../../components/MessageBox';
import { useForgotPassword } from '../api/forgot-password';
import { AuthCard } from '../components/AuthCard';
import { FormField } from '../components/FormField';
import { SubmitButton } from '../components/SubmitButton';
import { alertMessageFor, applyFieldErrors } from '../lib/apply-field-errors';
import type { ForgotPasswordForm } from '../lib/schemas';
import { lazyResolver } from '../../../lib/lazy-resolver';

const resolver = lazyResolver(() => import('../lib/resolvers').then((m) => m.forgotPasswordResolver));

/** Forgot password: one e-mail field; shows the server's message (the same whether or not the account exists). */
export default function ForgotPasswordPage() {
  const forgot = useForgotPassword();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ForgotPasswordForm>({ resolver, defaultValues: { email: '' } });

  const onSubmit = handleSubmit((values) => forgot.mutate(values, { onError: (error) => applyFieldErrors(error, setError, ['email']) }));

  return (
    <AuthCard title="Forgot Password">
      {forgot.isSuccess && <MessageBox variant="success">{forgot.data.message}</MessageBox>}
      {forgot.isSuccess && <DevMailboxLink />}
      {forgot.isError && alertMessageFor(forgot.error, ['email']) && <MessageBox variant="danger">{alertMessageFor(forgot.error, ['email'])}</MessageBox>}
      <p className="text-body-secondary">Enter the e-mail address of your account and we will send you a link to reset your password.</p>
      <form onSubmit={onSubmit} noValidate>
        <FormField id="forgot-email" label="Email" type="email" autoComplete="email" registration={register('email')} error={errors.email} />
        <SubmitButton isPending={forgot.isPending}>Send Reset Link</SubmitButton>
      </form>
      <p className="mt-3">
        Remembered it? <Link to="/signin">Sign In</Link>
      </p>
    </AuthCard>
  );
}
