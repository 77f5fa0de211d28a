import type { DevMailboxMessage } from '@shop/contracts';
import { Fragment } from 'react';
import { MessageBox } from '../../../components/MessageBox';
import NotFoundPage from '../../../components/NotFoundPage';
import { PageTitle } from '../../../components/PageTitle';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { useDevMailbox } from '../api/dev-mailbox';

const URL_PATTERN = /(https?:\/\/[^\s<>"']+)/g;

/** The body's text with its links clickable (the text is never rendered as HTML). */
function Linkified({ text }: { text: string }) {
  const parts = text.split(URL_PATTERN);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <a key={i} href={part} className="text-break">
            {part}
          </a>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  );
}

function Message({ m }: { m: DevMailboxMessage }) {
  const when = new Date(m.createdAt).toLocaleString();
  return (
    <article className="card mb-3" aria-labelledby={`mail-${m.id}`}>
      <div className="card-header">
        <h2 id={`mail-${m.id}`} className="h6 mb-1">{m.subject}</h2>
        <div className="small text-body-secondary">
          To <span className="text-break">{m.to}</span> · <time dateTime={m.createdAt}>{when}</time>
          {m.sentAt && ' · sent'}
        </div>
      </div>
      <div className="card-body">
        {m.erased ? (
          <p className="mb-0 fst-italic text-body-secondary">The body was erased (sent, or its link expired).</p>
        ) : (
          <p className="mb-0" style={{ whiteSpace: 'pre-wrap' }}>
            <Linkified text={m.text} />
          </p>
        )}
      </div>
    </article>
  );
}

/**
 * /dev/mailbox: outside production, without SMTP_URL, every message the shop kept, newest first,
 * links clickable (sign-up confirmation, password reset, set-password), so those can be tried locally.
 * Where the shop has no such mailbox (production, or mail sent through SMTP_URL), and to any other
 * machine than the shop's own, the API answers 404 and this is the not-found page (the server answers the page with 404 too: entry-server.tsx); the
 * text about the mailbox shows only once the mailbox has answered.
 */
export default function DevMailboxPage() {
  const mailbox = useDevMailbox();
  if (mailbox.isError && mailbox.error instanceof ApiError && mailbox.error.status === 404) return <NotFoundPage />;
  return (
    <div className="mx-auto" style={{ maxWidth: '48rem' }}>
      <PageTitle title="Development mailbox" />
      {mailbox.isPending ? (
        <p role="status">Loading messages…</p>
      ) : mailbox.isError ? (
        <MessageBox variant="danger">{getErrorMessage(mailbox.error)}</MessageBox>
      ) : (
        <>
          <p className="text-body-secondary">
            No mail server is configured (SMTP_URL), so the shop keeps its messages here instead of sending them. Newest first. This page
            exists only outside production, and only for this machine: other devices get a 404.
          </p>
          {mailbox.data.messages.length === 0 ? <MessageBox>No messages yet.</MessageBox> : mailbox.data.messages.map((m) => <Message key={m.id} m={m} />)}
        </>
      )}
    </div>
  );
}
