import { CHAT_TEXTS } from '@shop/contracts/chat-constants';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../../app/paths';
import { LoadingBox } from '../../../components/LoadingBox';
import { MessageBox } from '../../../components/MessageBox';
import { PageTitle } from '../../../components/PageTitle';
import { Paginator } from '../../../components/Paginator';
import { getErrorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useAllHistory } from '../api/chat-api';

const senderLabel = (sender: string) => (sender === 'user' ? 'User' : sender === 'admin' ? CHAT_TEXTS.admin : CHAT_TEXTS.ai);

/** /admin/chats: every customer and guest conversation, newest first, searchable and paged. */
export default function ChatListPage() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const search = params.get('search') ?? '';
  const [draft, setDraft] = useState(search);
  const { data, isPending, error } = useAllHistory(page, search);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const next = new URLSearchParams();
    if (draft.trim()) next.set('search', draft.trim());
    setParams(next);
  };
  const hrefFor = (n: number) => {
    const next = new URLSearchParams(params);
    next.set('page', String(n));
    return `${paths.admin.chats}?${next.toString()}`;
  };

  return (
    <div>
      <PageTitle title="Chat History" />
      <form className="d-flex gap-2 mb-3" role="search" onSubmit={submit}>
        <label htmlFor="chat-history-search" className="visually-hidden">Search by name or e-mail</label>
        <input id="chat-history-search" type="search" className="form-control" placeholder="Search by name or e-mail" value={draft} onChange={(e) => setDraft(e.target.value)} style={{ maxWidth: 360 }} />
        <button type="submit" className="btn btn-outline-primary" aria-label="Search chats">Search</button>
      </form>
      {isPending ? (
        <LoadingBox />
      ) : error ? (
        <MessageBox variant="danger">{getErrorMessage(error)}</MessageBox>
      ) : data.chats.length === 0 ? (
        <MessageBox>No chats found</MessageBox>
      ) : (
        <>
          <div className="table-responsive">
            <table className="table table-hover align-middle">
              <thead>
                <tr><th scope="col">USER</th><th scope="col">EMAIL</th><th scope="col">LAST ACTIVITY</th><th scope="col">MESSAGES</th><th scope="col">LAST MESSAGE</th><th scope="col">ACTIONS</th></tr>
              </thead>
              <tbody>
                {data.chats.map((c) => {
                  const last = c.messages.at(-1);
                  return (
                    <tr key={c._id}>
                      <td>{c.userName}{c.isGuest && <span className="badge bg-secondary ms-2">Guest</span>}</td>
                      <td className="text-break">{c.userEmail}</td>
                      <td>{formatDateTime(c.lastActivity)}</td>
                      <td>{c.messageCount}</td>
                      <td className="text-truncate" style={{ maxWidth: 260 }}>{last ? `${senderLabel(last.sender)}: ${last.content}` : ''}</td>
                      <td><Link className="btn btn-sm btn-outline-primary" to={paths.admin.chat(c._id)} aria-label={`Details of the chat with ${c.userName}`}>Details</Link></td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <Paginator page={data.page} pages={data.pages} hrefFor={hrefFor} label="Chat history pages" />
        </>
      )}
    </div>
  );
}
