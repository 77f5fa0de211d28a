import { useEffect, useRef } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Redirect } from '../components/guards';
import { paths } from '../../../lib/paths';
import { LoadingBox } from '../../../components/LoadingBox';
import { MessageBox } from '../../../components/MessageBox';
import { getErrorMessage } from '../../../lib/api-client';
import { useConfirmSignUp } from '../api/confirm-sign-up';
import { AuthCard } from '../components/AuthCard';
import { useEstablishSession } from '../hooks/use-session-user';
import { useRedirectParam } from '../lib/redirect';

/**
 * /confirm-signup?token=...&redirect=...: the link mailed after sign-up. Sends the token once,
 * which creates the account and signs it in, then goes to ?redirect (default /). No token: /.
 */
export default function ConfirmSignUpPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  const redirect = useRedirectParam();
  const navigate = useNavigate();
  const confirm = useConfirmSignUp();
  const establishSession = useEstablishSession();
  const sent = useRef(false);

  useEffect(() => {
    // The token works once: strict mode's second effect run must not spend it again.
    if (!token || sent.current) return;
    sent.current = true;
    confirm.mutate(
      { token },
      {
        onSuccess: (user) => {
          establishSession(user);
          void navigate(redirect, { replace: true });
        },
      },
    );
  }, [token, confirm, establishSession, navigate, redirect]);

  if (!token) return <Redirect to="/" replace />;

  return (
    <AuthCard title="Confirm your account">
      {confirm.isError ? (
        <MessageBox variant="danger">
          {getErrorMessage(confirm.error)} <Link to={paths.signup}>Sign up again</Link> or <Link to={paths.signin}>Sign In</Link>
        </MessageBox>
      ) : (
        <LoadingBox label="Creating your account..." />
      )}
    </AuthCard>
  );
}
