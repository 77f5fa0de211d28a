import { Link, useSearchParams } from 'react-router';
import { paths } from '../../../lib/paths';
import { MessageBox } from '../../../components/MessageBox';
import { PageTitle } from '../../../components/PageTitle';
import { getErrorMessage } from '../../../lib/api-client';
import { useUnsubscribeFromNewsletter } from '../api/newsletter';

/**
 * /newsletter/unsubscribe?token=...: the link in the confirmation mail. Unsubscribing takes a click,
 * so a mail scanner that opens the link changes nothing.
 */
export default function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const unsubscribe = useUnsubscribeFromNewsletter();

  return (
    <div className="shop-prose mx-auto">
      <PageTitle title="Newsletter" />
      <h1 className="h3 mb-3">Unsubscribe from the newsletter</h1>
      {!token ? (
        <MessageBox variant="danger">This unsubscribe link is invalid.</MessageBox>
      ) : unsubscribe.isSuccess ? (
        <MessageBox variant="success">{unsubscribe.data.message}</MessageBox>
      ) : (
        <>
          {unsubscribe.isError && <MessageBox variant="danger">{getErrorMessage(unsubscribe.error)}</MessageBox>}
          <p>You will no longer receive our deals and new arrivals by e-mail.</p>
          <button type="button" className="btn btn-warning" disabled={unsubscribe.isPending} onClick={() => unsubscribe.mutate({ token })}>
            {unsubscribe.isPending ? 'Unsubscribing…' : 'Unsubscribe'}
          </button>
        </>
      )}
      <p className="mt-3">
        <Link to={paths.home}>Back to the shop</Link>
      </p>
    </div>
  );
}
