import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../../lib/paths';
import { useStore } from '../../../lib/store';
import { LoadingBox } from '../../../components/LoadingBox';
import { MessageBox } from '../../../components/MessageBox';
import { getErrorMessage } from '../../../lib/api-client';
import { AuthCard, Redirect } from '../../auth';
import { useConfirmEmail } from '../api/confirm-email';

/**
 * /confirm-email?token=...: the link mailed to a new address after a change of e-mail in the
 * profile. Sends the token once; the account's e-mail is then the new address. Works signed in or
 * not, in any browser (the link is the proof); a signed-in user's header and profile show the new
 * address at once (the current user is read again). A link that is used, replaced, expired, or
 * whose address another account took meanwhile, gets the server's own explanation and the way
 * forward. No token: /.
 */
export default function ConfirmEmailPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  const confirm = useConfirmEmail();
  const { state } = useStore();
  const sent = useRef(false);
  const signedIn = state.userInfo;

  useEffect(() => {
    // The token works once: strict mode's second effect run must not spend it again.
    if (!token || sent.current) return;
    sent.current = true;
    confirm.mutate({ token });
  }, [token, confirm]);

  const confirmed = confirm.data;
  if (!token) return <Redirect to="/" replace />;

  const onward = signedIn ? (
    <Link to={paths.profile}>Go to your profile</Link>
  ) : (
    <Link to={paths.signin}>Sign In</Link>
  );

  return (
    <AuthCard title="Confirm your new e-mail">
      {confirm.isError ? (
        <MessageBox variant="danger">
          {getErrorMessage(confirm.error)} {onward}
        </MessageBox>
      ) : confirmed ? (
        <MessageBox variant="success">
          {confirmed.message} Your e-mail address is now <strong className="text-break">{confirmed.email}</strong>. {onward}
        </MessageBox>
      ) : (
        <LoadingBox label="Confirming your new e-mail address..." />
      )}
    </AuthCard>
  );
}
