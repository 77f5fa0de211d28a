import { DEV_MAILBOX_LINK_TEXT, DEV_MAILBOX_PATH } from '@shop/contracts';
import { Link } from 'react-router';
import { useDevMailboxAvailable } from '../api/dev-mailbox';

/** On pages that say "we sent you an e-mail": in development only, where that mail can be read. */
export function DevMailboxLink() {
  const available = useDevMailboxAvailable();
  if (!available) return null;
  return (
    <p className="small border rounded p-2">
      <span className="badge text-bg-secondary me-2">Development</span>
      No mail server is set up: <Link to={DEV_MAILBOX_PATH}>{DEV_MAILBOX_LINK_TEXT}</Link>
    </p>
  );
}
