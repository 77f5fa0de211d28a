import { CHAT_MAX_MESSAGE_LENGTH, CHAT_TEXTS, chatWithTitle, type ChatMessage } from '@shop/contracts/chat-constants';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { paths } from '../../../lib/paths';
import { AdminPageHeader } from '../../../components/admin/AdminPageHeader';
import { EmailText } from '../../../components/EmailText';
import { ListSkeleton } from '../../../components/Skeleton';
import { MessageBox } from '../../../components/MessageBox';
import { ApiError } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useStore } from '../../../lib/store';
import { toast } from '../../../lib/toast';
import { allHistoryKey, markChatRead, useChat, useOnlineUsers } from '../api/chat-api';
import { AvailabilitySwitch } from '../components/AvailabilitySwitch';
import { FALLBACK_BADGE } from '../components/chat-widget-texts';
import { MessageText } from '../components/MessageText';
import { WantsPersonBadge } from '../../../components/WantsPersonBadge';
import { useChatConnection } from '../hooks/use-chat-connection';
import { usePageVisible } from '../hooks/use-page-visible';
import type { ConnectionStatus } from '../lib/chat-connection';
import { setOpenConversation } from '../lib/open-conversation';

const senderLabel = (sender: string, name: string) => (sender === 'user' ? name : sender === 'admin' ? CHAT_TEXTS.admin : CHAT_TEXTS.ai);

const STATUS_TEXT: Record<ConnectionStatus, string> = {
  connecting: 'Connecting…',
  open: 'Connected',
  reconnecting: 'Reconnecting…',
  closed: 'Disconnected: reload the page to answer',
};

const byTime = (a: ChatMessage, b: ChatMessage) => a.timestamp.localeCompare(b.timestamp) || a.id.localeCompare(b.id);

/** The stored messages with those that came over the socket since, each once, in order. */
function mergeMessages(stored: ChatMessage[], live: ChatMessage[]): ChatMessage[] {
  const ids = new Set(stored.map((m) => m.id));
  const added = live.filter((m) => !ids.has(m.id));
  return added.length ? [...stored, ...added].sort(byTime) : stored;
}

/**
 * /admin/chat/:id: one conversation, live, with a reply box. It listens to the tab's chat socket
 * (shared with the back office and the widget): messages of this conversation appear as they come,
 * the administrator's answer goes to this customer or guest, and what is on screen in a visible tab
 * is marked read (the newest message shown, so one that arrives meanwhile stays unread). A Back
 * button returns to the list.
 */
export default function ChatDetailPage() {
  const { id = '' } = useParams();
  // Another conversation starts afresh (its own live messages and read mark).
  return <Conversation key={id} id={id} />;
}

function Conversation({ id }: { id: string }) {
  const navigate = useNavigate();
  const { state } = useStore();
  const adminId = state.userInfo?.isAdmin ? state.userInfo._id : null;
  const queryClient = useQueryClient();
  const { data, isPending, error } = useChat(id);
  const customerId = data?.userId;
  const isOnline = (useOnlineUsers(Boolean(customerId)).data?.users ?? []).some((u) => u.id === customerId);
  const [heard, setHeard] = useState<{ id: string; text: string } | null>(null);
  // Messages that came over the socket: kept beside the stored ones, so a read of the conversation
  // that started before one of them arrived (after a reconnect) does not take it off the screen.
  const [live, setLive] = useState<ChatMessage[]>([]);
  const visible = usePageVisible();

  const conn = useChatConnection(adminId ? `admin:${adminId}` : null, {
    onEvent: (e) => {
      if ((e.type === 'message' || e.type === 'ack') && e.message.userId === customerId) {
        const m = e.message;
        setLive((prev) => (prev.some((x) => x.id === m.id) ? prev : [...prev, m]));
        if (e.type === 'message' && m.sender !== 'admin') setHeard({ id: m.id, text: `${senderLabel(m.sender, m.senderName)}: ${m.content}` });
      } else if (e.type === 'error' && e.clientId) {
        toast.error(e.message);
      }
    },
  });

  // The title does not blink for this conversation's messages while it is on screen.
  useEffect(() => {
    setOpenConversation(customerId ?? null);
    return () => setOpenConversation(null);
  }, [customerId]);

  const messages = useMemo(() => (data ? mergeMessages(data.messages, live) : undefined), [data, live]);
  const extra = data && messages ? messages.length - data.messages.length : 0;

  // Read up to the newest message shown, in a visible tab, whenever the customer said something new.
  const markedUpTo = useRef<string | null>(null);
  useEffect(() => {
    if (!messages?.length || !visible) return;
    const newest = messages.at(-1)!;
    if (newest.id === markedUpTo.current) return;
    const from = markedUpTo.current ? messages.findIndex((m) => m.id === markedUpTo.current) + 1 : 0;
    const previous = markedUpTo.current;
    markedUpTo.current = newest.id;
    if (!messages.slice(from).some((m) => m.sender === 'user')) return;
    markChatRead(id, newest.id).then(
      () => queryClient.invalidateQueries({ queryKey: allHistoryKey }),
      // Tried again with the next message or when the tab is visible again.
      () => { if (markedUpTo.current === newest.id) markedUpTo.current = previous; },
    );
  }, [id, messages, visible, queryClient]);

  const pending = conn && customerId ? [...conn.pending.entries()].filter(([, p]) => p.recipientId === customerId) : [];
  const title = data ? chatWithTitle(data.userName) : 'Chat Details';

  return (
    <div>
      <button type="button" className="btn btn-outline-secondary mt-3" onClick={() => navigate(paths.admin.chats)}>Back</button>
      <AdminPageHeader title={title}>
        <AvailabilitySwitch />
      </AdminPageHeader>
      {isPending ? (
        <ListSkeleton rows={4} />
      ) : error ? (
        <MessageBox variant="danger">{error instanceof ApiError && error.status === 404 ? CHAT_TEXTS.chatNotFound : CHAT_TEXTS.fetchChatFailed}</MessageBox>
      ) : (
        <section className="card shop-conversation" aria-labelledby="conversation-with">
          <header className="card-header d-flex flex-wrap align-items-center gap-2">
            <h2 id="conversation-with" className="h6 mb-0">{data.userName}</h2>
            <EmailText email={data.userEmail} className="small text-body-secondary" />
            {data.isGuest && <span className="badge text-bg-secondary">Guest</span>}
            <WantsPersonBadge since={data.wantsPersonAt} />
            <span className={`badge ${isOnline ? 'text-bg-success' : 'text-bg-light border'}`}>{isOnline ? 'online' : 'offline'}</span>
            <span className="small text-body-secondary ms-auto">{data.messageCount + extra} messages · last activity {formatDateTime(messages?.at(-1)?.timestamp ?? data.lastActivity)}</span>
          </header>
          <Transcript userName={data.userName} messages={messages ?? []} pending={pending.map(([clientId, p]) => ({ clientId, content: p.content }))} />
          <div className="visually-hidden" aria-live="polite" data-testid="conversation-announcer">{heard && <p key={heard.id}>{heard.text}</p>}</div>
          <ReplyBox
            name={data.userName}
            status={conn?.status ?? 'connecting'}
            onSend={(text) => conn?.send(text, data.userId) != null}
          />
        </section>
      )}
    </div>
  );
}

function Transcript({ userName, messages, pending }: { userName: string; messages: ChatMessage[]; pending: Array<{ clientId: string; content: string }> }) {
  const box = useRef<HTMLDivElement>(null);
  // The newest message in view (the box scrolls, the page does not).
  useLayoutEffect(() => {
    const el = box.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [messages.length, pending.length]);
  return (
    <div ref={box} className="card-body shop-conversation-messages" role="region" aria-label="Messages" tabIndex={0}>
      {messages.length === 0 && pending.length === 0 ? (
        <p className="text-body-secondary mb-0">No messages</p>
      ) : (
        <ol className="list-unstyled mb-0">
          {messages.map((m) => (
            <li key={m.id} className={`shop-conversation-message ${m.sender === 'user' ? 'is-customer' : 'is-shop'}`} data-testid="conversation-message">
              <div className="small text-body-secondary">
                <strong>{senderLabel(m.sender, userName)}</strong> · <time dateTime={m.timestamp}>{formatDateTime(m.timestamp)}</time>
                {m.sender === 'ai' && m.fallback === true && <span className="badge text-bg-warning ms-2">{FALLBACK_BADGE}</span>}
              </div>
              <div className="shop-conversation-text"><MessageText content={m.content} fromAssistant={m.sender === 'ai'} /></div>
            </li>
          ))}
          {pending.map((p) => (
            <li key={p.clientId} className="shop-conversation-message is-shop opacity-75">
              <div className="small text-body-secondary"><strong>{CHAT_TEXTS.admin}</strong> · sending…</div>
              <div className="shop-conversation-text">{p.content}</div>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

/** The reply box: Enter sends, Shift+Enter starts a new line; disabled while the socket is away. */
function ReplyBox({ name, status, onSend }: { name: string; status: ConnectionStatus; onSend: (text: string) => boolean }) {
  const [text, setText] = useState('');
  const disabled = status !== 'open';
  const send = () => {
    if (!text.trim()) {
      setText('');
      return;
    }
    if (onSend(text)) setText('');
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };
  return (
    <form className="card-footer" onSubmit={onSubmit}>
      <label htmlFor="chat-reply" className="form-label small fw-semibold mb-1">Reply to {name}</label>
      <div className="d-flex gap-2 align-items-end">
        <textarea
          id="chat-reply"
          className="form-control"
          rows={2}
          placeholder={CHAT_TEXTS.placeholder}
          value={text}
          maxLength={CHAT_MAX_MESSAGE_LENGTH}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          disabled={disabled}
          aria-describedby="chat-reply-status"
        />
        <button type="submit" className="btn btn-primary" disabled={disabled}>{CHAT_TEXTS.send}</button>
      </div>
      <div id="chat-reply-status" className={`small mt-1 ${disabled ? 'text-danger-emphasis' : 'text-body-secondary'}`} role="status">
        {disabled ? STATUS_TEXT[status] : 'Enter sends, Shift+Enter starts a new line.'}
      </div>
    </form>
  );
}
