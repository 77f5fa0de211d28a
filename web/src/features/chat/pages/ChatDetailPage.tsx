import { CHAT_TEXTS } from '@shop/contracts/chat-constants';
import { useNavigate, useParams } from 'react-router';
import { paths } from '../../../lib/paths';
import { ListSkeleton } from '../../../components/Skeleton';
import { MessageBox } from '../../../components/MessageBox';
import { PageTitle } from '../../../components/PageTitle';
import { ApiError } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useChat } from '../api/chat-api';
import { FALLBACK_BADGE } from '../components/chat-widget-texts';
import { MessageText } from '../components/MessageText';

const senderLabel = (sender: string, name: string) => (sender === 'user' ? name : sender === 'admin' ? CHAT_TEXTS.admin : CHAT_TEXTS.ai);

/** /admin/chat/:id: one conversation, read-only, with a Back button. */
export default function ChatDetailPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { data, isPending, error } = useChat(id);
  return (
    <div>
      <button type="button" className="btn btn-outline-secondary mt-3" onClick={() => navigate(paths.admin.chats)}>Back</button>
      <PageTitle title="Chat Details" />
      {isPending ? (
        <ListSkeleton rows={4} />
      ) : error ? (
        <MessageBox variant="danger">{error instanceof ApiError && error.status === 404 ? CHAT_TEXTS.chatNotFound : CHAT_TEXTS.fetchChatFailed}</MessageBox>
      ) : (
        <>
          <p className="mb-1"><strong>{data.userName}</strong> · <span className="text-break">{data.userEmail}</span>{data.isGuest && <span className="badge bg-secondary ms-2">Guest</span>}</p>
          <p className="text-body-secondary small">Last activity {formatDateTime(data.lastActivity)} · {data.messageCount} messages</p>
          {data.messages.length === 0 ? (
            <MessageBox>No messages</MessageBox>
          ) : (
            <ol className="list-unstyled">
              {data.messages.map((m) => (
                <li key={m.id} className="border rounded p-2 mb-2">
                  <div className="small text-body-secondary">
                    <strong>{senderLabel(m.sender, data.userName)}</strong> · <time dateTime={m.timestamp}>{formatDateTime(m.timestamp)}</time>
                    {m.sender === 'ai' && m.fallback === true && <span className="badge text-bg-warning ms-2">{FALLBACK_BADGE}</span>}
                  </div>
                  <div style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}><MessageText content={m.content} fromAssistant={m.sender === 'ai'} /></div>
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </div>
  );
}
