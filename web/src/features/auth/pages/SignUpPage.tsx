import { useForm } from 'react-hook-form';
import { DevMailboxLink } from '../../dev-mailbox';
import { Link } from 'react-router';
import { Redirect } from '../components/guards';
import { paths } from '../../../lib/paths';
import { useStore } from '../../../lib/store';
import { MessageBox } from '../../../components/MessageBox';
import { useSignUp } from '../api/sign-up';
import { AuthCard } from '../components/AuthCard';
import { FormField } from '../components/FormField';
import { SubmitButton } from '../components/SubmitButton';
import { alertMessageFor, applyFieldErrors } from '../lib/apply-field-errors';
import { useRedirectParam, withRedirect } from '../lib/redirect';
import type { SignUpForm } from '../lib/schemas';
import { lazyResolver } from '../../../lib/lazy-resolver';

const FIELDS = ['name', 'email', 'password'] as const;

/** After sign-up: the account is created by the link mailed to the address. */
function CheckYourEmail({ email, message, onRetry }: { email: string; message: string; onRetry: () => void }) {
  return (
    <AuthCard title="Check your e-mail">
      <div className="alert alert-success" role="status">
        {message}
      </div>
      <p>
        We sent a message to <strong className="text-break">{email}</strong>. Open the link in it to confirm your address; your account is
        created and you are signed in. The link works once, for 24 hours.
      </p>
      <DevMailboxLink />
      <p className="text-body-secondary small">
        No e-mail? Check your spam folder, or{' '}
        <button type="button" className="btn btn-link p-0 align-baseline small" onClick={onRetry}>
          try again
        </button>
        . Already have an account? <Link to={paths.signin}>Sign In</Link>
      </p>
    </AuthCard>
  );
}

const resolver = lazyResolver(() => import('../lib/resolvers').then((m) => m.signUpResolver));

/** Sign up (name, email, password, confirm): sends a confirmation link, then shows "check your e-mail". ?redirect travels in the link. */
export default function SignUpPage() {
  const { state } = useStore();
  const redirect = useRedirectParam();
  const signUp = useSignUp();
  const {
    register,
    handleSubmit,
    setError,
    getValues,
    formState: { errors },
  } = useForm<SignUpForm>({
    resolver,
    defaultValues: { name: '', email: '', password: '', confirmPassword: '' },
  });

  if (state.userInfo) return <Redirect to={redirect} replace />;
  if (signUp.isSuccess) return <CheckYourEmail email={getValues('email').trim()} message={signUp.data.message} onRetry={() => signUp.reset()} />;

  const alert = signUp.isError ? alertMessageFor(signUp.error, FIELDS) : null;
  const onSubmit = handleSubmit(({ name, email, password }) =>
    signUp.mutate(
      { name, email, password, ...(redirect !== '/' ? { redirect } : {}) },
      { onError: (error) => applyFieldErrors(error, setError, FIELDS) },
    ),
  );

  return (
    <AuthCard title="Sign Up">
      {alert && <MessageBox variant="danger">{alert}</MessageBox>}
      <form onSubmit={onSubmit} noValidate>
        <FormField id="signup-name" label="Name" autoComplete="name" registration={register('name')} error={errors.name} />
        <FormField id="signup-email" label="Email" type="email" autoComplete="email" registration={register('email')} error={errors.email} />
        <FormField id="signup-password" label="Password" type="password" autoComplete="new-password" registration={register('password')} error={errors.password} />
        <FormField
          id="signup-confirm-password"
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
          registration={register('confirmPassword')}
          error={errors.confirmPassword}
        />
        <SubmitButton isPending={signUp.isPending}>Sign Up</SubmitButton>
      </form>
      <p className="mt-3">
        Already have an account? <Link to={withRedirect(paths.signin, redirect)}>Sign In</Link>
      </p>
    </AuthCard>
  );
}
