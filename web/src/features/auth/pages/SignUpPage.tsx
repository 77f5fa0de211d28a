import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, Navigate } from 'react-router';
import { paths } from '../../../app/paths';
import { useStore } from '../../../app/store';
import { MessageBox } from '../../../components/MessageBox';
import { getErrorMessage } from '../../../lib/api-client';
import { useSignUp } from '../api/sign-up';
import { AuthCard } from '../components/AuthCard';
import { FormField } from '../components/FormField';
import { SubmitButton } from '../components/SubmitButton';
import { useEstablishSession } from '../hooks/use-session-user';
import { applyFieldErrors } from '../lib/apply-field-errors';
import { useRedirectParam, withRedirect } from '../lib/redirect';
import { signUpFormSchema, type SignUpForm } from '../lib/schemas';

/** Sign up (name, email, password, confirm); the new account is signed in and sent to ?redirect (default /). */
export default function SignUpPage() {
  const { state } = useStore();
  const redirect = useRedirectParam();
  const signUp = useSignUp();
  const establishSession = useEstablishSession();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<SignUpForm>({
    resolver: zodResolver(signUpFormSchema),
    defaultValues: { name: '', email: '', password: '', confirmPassword: '' },
  });

  if (state.userInfo) return <Navigate to={redirect} replace />;

  const onSubmit = handleSubmit(({ name, email, password }) =>
    signUp.mutate(
      { name, email, password },
      {
        onSuccess: (user) => establishSession(user),
        onError: (error) => applyFieldErrors(error, setError, ['name', 'email', 'password']),
      },
    ),
  );

  return (
    <AuthCard title="Sign Up">
      {signUp.isError && <MessageBox variant="danger">{getErrorMessage(signUp.error)}</MessageBox>}
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
