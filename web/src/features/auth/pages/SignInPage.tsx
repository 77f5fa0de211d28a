import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { Redirect } from '../components/guards';
import { paths } from '../../../lib/paths';
import { useStore } from '../../../lib/store';
import { MessageBox } from '../../../components/MessageBox';
import { useSignIn } from '../api/sign-in';
import { AuthCard } from '../components/AuthCard';
import { FormField } from '../components/FormField';
import { SubmitButton } from '../components/SubmitButton';
import { useEstablishSession } from '../hooks/use-session-user';
import { alertMessageFor, applyFieldErrors } from '../lib/apply-field-errors';
import { ADMIN_NEEDED, ADMIN_NEEDED_SIGNED_IN, isAdminPath, useRedirectParam, withRedirect } from '../lib/redirect';
import type { SignInForm } from '../lib/schemas';
import { lazyResolver } from '../../../lib/lazy-resolver';

const FIELDS = ['email', 'password'] as const;

const resolver = lazyResolver(() => import('../lib/resolvers').then((m) => m.signInResolver));

/** Sign in; honours ?redirect (default /). Signed-in visitors go straight to the redirect. */
export default function SignInPage() {
  const { state } = useStore();
  const redirect = useRedirectParam();
  const signIn = useSignIn();
  const establishSession = useEstablishSession();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<SignInForm>({ resolver, defaultValues: { email: '', password: '' } });

  // Back-office pages need an administrator: a signed-in customer stays here to switch accounts.
  const needsAdmin = isAdminPath(redirect);
  if (state.userInfo && !(needsAdmin && !state.userInfo.isAdmin)) return <Redirect to={redirect} replace />;

  const onSubmit = handleSubmit((values) =>
    signIn.mutate(values, {
      onSuccess: (user) => establishSession(user),
      onError: (error) => applyFieldErrors(error, setError, FIELDS),
    }),
  );

  return (
    <AuthCard title="Sign In">
      {needsAdmin && (
        <MessageBox variant="info">
          {state.userInfo ? ADMIN_NEEDED_SIGNED_IN : ADMIN_NEEDED}
        </MessageBox>
      )}
      {signIn.isError && alertMessageFor(signIn.error, FIELDS) && <MessageBox variant="danger">{alertMessageFor(signIn.error, FIELDS)}</MessageBox>}
      <form onSubmit={onSubmit} noValidate>
        <FormField id="signin-email" label="Email" type="email" autoComplete="email" registration={register('email')} error={errors.email} />
        <FormField id="signin-password" label="Password" type="password" autoComplete="current-password" registration={register('password')} error={errors.password} />
        <SubmitButton isPending={signIn.isPending}>Sign In</SubmitButton>
      </form>
      <p className="mt-3 mb-1">
        New customer? <Link to={withRedirect(paths.signup, redirect)}>Create your account</Link>
      </p>
      <p>
        Forgot Password? <Link to="/forgot-password">Reset Password</Link>
      </p>
    </AuthCard>
  );
}
