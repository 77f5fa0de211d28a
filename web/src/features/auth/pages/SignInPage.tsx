import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, Navigate } from 'react-router';
import { paths } from '../../../app/paths';
import { useStore } from '../../../app/store';
import { MessageBox } from '../../../components/MessageBox';
import { getErrorMessage } from '../../../lib/api-client';
import { useSignIn } from '../api/sign-in';
import { AuthCard } from '../components/AuthCard';
import { FormField } from '../components/FormField';
import { SubmitButton } from '../components/SubmitButton';
import { useEstablishSession } from '../hooks/use-session-user';
import { applyFieldErrors } from '../lib/apply-field-errors';
import { useRedirectParam, withRedirect } from '../lib/redirect';
import { signInFormSchema, type SignInForm } from '../lib/schemas';

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
  } = useForm<SignInForm>({ resolver: zodResolver(signInFormSchema), defaultValues: { email: '', password: '' } });

  if (state.userInfo) return <Navigate to={redirect} replace />;

  const onSubmit = handleSubmit((values) =>
    signIn.mutate(values, {
      onSuccess: (user) => establishSession(user),
      onError: (error) => applyFieldErrors(error, setError, ['email', 'password']),
    }),
  );

  return (
    <AuthCard title="Sign In">
      {signIn.isError && <MessageBox variant="danger">{getErrorMessage(signIn.error)}</MessageBox>}
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
