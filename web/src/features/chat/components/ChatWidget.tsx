import {
  CHAT_ADMIN_STATUS_POLL_MS, CHAT_CLOSE_SIGNED_OUT, CHAT_PULSE_MS, CHAT_TEXTS, chatWithTitle, GUEST_EMAIL_PATTERN, newUserOnlineToast, onlineUsersTitle,
  type ChatMessage, type ChatServerEvent, type OnlineUser,
} from '@shop/contracts/chat-constants';
import { useCallback, useEffect, useId, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { toast } from '../../../lib/toast';
import { useStore } from '../../../lib/store';
import { getErrorMessage } from '../../../lib/api-client';
import { formatClockTime } from '../../../lib/format';
import {
  createGuestSession, getAdminStatus, getGuestHistory, getHistory, getOnlineUsers, getUserMessages, verifyGuest, type GuestInfo,
} from '../api/chat-api';
import { useAdminAvailability } from '../hooks/use-admin-availability';
import { useChatConnection } from '../hooks/use-chat-connection';
import { announceAvailability } from '../lib/admin-availability';
import { blinkTitle, playNotificationSound, requestNotificationPermissionOnce, stopTitleBlink } from '../lib/alerts';
import type { ConnectionStatus } from '../lib/chat-connection';
import { FALLBACK_LABEL, RESPONDER_TEXT, SIGN_IN_TO_CHAT, SIGNED_OUT_TEXT } from './chat-widget-texts';
import { MessageText } from './MessageText';

type Me = { kind: 'admin' | 'customer'; id: string; name: string } | { kind: 'guest'; id: string; name: string } | null;

const STATUS_TEXT: Record<ConnectionStatus, string> = {
  connecting: 'Connecting…',
  open: 'Connected',
  reconnecting: 'Reconnecting…',
  closed: 'Disconnected',
};

/** The most recent announcements kept in the screen-reader region (older ones are dropped, never re-read). */
const ANNOUNCEMENTS_KEPT = 3;

type Responder = 'admin' | 'ai';
type Announcement = { id: string; text: string };

export default function ChatWidget({ initiallyOpen = false }: { initiallyOpen?: boolean }) {
  const { state } = useStore();
  const user = state.userInfo;
  const [open, setOpen] = useState(initiallyOpen);
  const [guest, setGuest] = useState<GuestInfo | null | undefined>(user ? null : undefined);
  const [unread, setUnread] = useState(false);
  const [unreadUsers, setUnreadUsers] = useState<Set<string>>(() => new Set());
  const [pulse, setPulse] = useState(false);
  const [onlineUsers, setOnlineUsers] = useState<OnlineUser[]>([]);
  const [selected, setSelected] = useState<OnlineUser | null>(null);
  const { isOnline: adminAvailable, toggle: onToggleAvailability } = useAdminAvailability();
  const [anyAdminOnline, setAnyAdminOnline] = useState(false);
  const [askedPermission, setAskedPermission] = useState(false);
  const [responder, setResponder] = useState<Responder | null>(null);
  const [signedOut, setSignedOut] = useState(false);
  const [announcements, setAnnouncements] = useState<Announcement[]>([]);
  const launcherRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const location = useLocation();
  const openRef = useRef(open);
  const selectedRef = useRef(selected);
  useEffect(() => {
    openRef.current = open;
    selectedRef.current = selected;
  }, [open, selected]);
  const pulseTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const titleId = useId();

  const me: Me = useMemo(() => {
    if (user) return { kind: user.isAdmin ? 'admin' : 'customer', id: user._id, name: user.name };
    if (guest) return { kind: 'guest', id: guest.guestId, name: guest.name };
    return null;
  }, [user, guest]);
  const isAdmin = me?.kind === 'admin';

  // A guest session of this browser (cookie) is restored. Signing in ends it on the server (the
  // cookie is cleared): the widget forgets the guest and reconnects as the account.
  useEffect(() => {
    let cancelled = false;
    if (user) {
      queueMicrotask(() => { if (!cancelled) setGuest(null); });
      return () => { cancelled = true; };
    }
    verifyGuest()
      .then((r) => { if (!cancelled) setGuest(r.success ? { guestId: r.guestId, name: r.name, email: r.email } : null); })
      .catch(() => { if (!cancelled) setGuest(null); });
    return () => { cancelled = true; };
  }, [user]);

  const startPulse = useCallback(() => {
    setPulse(true);
    if (pulseTimer.current) clearTimeout(pulseTimer.current);
    pulseTimer.current = setTimeout(() => setPulse(false), CHAT_PULSE_MS);
  }, []);
  useEffect(() => () => { if (pulseTimer.current) clearTimeout(pulseTimer.current); }, []);

  const fetchMissed = useCallback(async (after: string | undefined): Promise<ChatMessage[]> => {
    if (!me) return [];
    if (me.kind === 'guest') return (await getGuestHistory(me.id, after)).messages;
    if (me.kind === 'customer') return (await getHistory(after))[0]?.messages ?? [];
    const sel = selectedRef.current;
    if (!sel) return [];
    return (await getUserMessages(sel.id, after)).messages;
  }, [me]);

  const onEvent = useCallback((e: ChatServerEvent) => {
    if (e.type === 'responder') setResponder(e.responder === 'admin' ? 'admin' : 'ai');
    else if (e.type === 'admin-status') setAnyAdminOnline(e.isOnline);
    else if (e.type === 'online-users') setOnlineUsers(e.users);
    else if (e.type === 'user-connected') toast.info(newUserOnlineToast(e.user.name));
    else if (e.type === 'error') toast.error(e.message);
    else if (e.type === 'message') {
      const m = e.message;
      // New messages from someone else are read out while the panel is open (history never is).
      if (openRef.current && me && m.senderId !== me.id && (!isAdmin || selectedRef.current?.id === m.userId)) {
        const from = m.sender === 'ai' ? CHAT_TEXTS.ai : m.sender === 'admin' ? CHAT_TEXTS.admin : m.senderName;
        setAnnouncements((prev) => [...prev, { id: m.id, text: `${from}: ${m.content}` }].slice(-ANNOUNCEMENTS_KEPT));
      }
      if (isAdmin) {
        if (m.sender === 'user' && (!openRef.current || selectedRef.current?.id !== m.userId)) {
          setUnreadUsers((prev) => new Set(prev).add(m.userId));
          startPulse();
          blinkTitle();
        }
      } else if (m.sender === 'admin' && !openRef.current) {
        setUnread(true);
        startPulse();
        playNotificationSound();
      }
    }
  }, [isAdmin, startPulse, me]);

  const onClosed = useCallback((code: number) => { if (code === CHAT_CLOSE_SIGNED_OUT) setSignedOut(true); }, []);
  // The tab's one chat socket for this identity (the back office's chat pages share it).
  const conn = useChatConnection(me ? `${me.kind}:${me.id}` : null, { fetchMissed, onEvent, onClosed });
  useEffect(() => () => stopTitleBlink(), []);
  // The connection may also know it is signed out (a renewal after a 4001 close that failed).
  const isSignedOut = signedOut || (conn as { signedOut?: boolean } | null)?.signedOut === true;

  // The panel takes focus when it opens: its first field when one can be typed in, else the panel itself.
  useEffect(() => {
    if (!open) return;
    const panel = panelRef.current;
    const field = panel?.querySelector<HTMLInputElement>('input:not([disabled])');
    (field ?? panel)?.focus();
  }, [open]);

  // Administrators: own availability (remembered in the browser), the shared status polled every 30 s, the users list.
  useEffect(() => {
    if (!isAdmin || !me) return undefined;
    announceAvailability(me.id);
    getOnlineUsers().then((r) => setOnlineUsers(r.users)).catch(() => undefined);
    const poll = () => getAdminStatus().then((r) => setAnyAdminOnline(r.isOnline)).catch(() => undefined);
    void poll();
    const id = setInterval(poll, CHAT_ADMIN_STATUS_POLL_MS);
    return () => clearInterval(id);
  }, [isAdmin]); // eslint-disable-line react-hooks/exhaustive-deps

  const selectUser = async (u: OnlineUser) => {
    setSelected(u);
    setUnreadUsers((prev) => { const next = new Set(prev); next.delete(u.id); return next; });
    try {
      conn?.merge((await getUserMessages(u.id)).messages);
    } catch (err) {
      toast.error(getErrorMessage(err));
    }
  };

  const toggleOpen = () => {
    if (!isAdmin && !askedPermission) {
      requestNotificationPermissionOnce();
      setAskedPermission(true);
    }
    setOpen((o) => !o);
    setUnread(false);
    setAnnouncements([]);
  };

  /** Closes the panel and gives focus back to the chat button. */
  const closePanel = () => {
    setOpen(false);
    setAnnouncements([]);
    launcherRef.current?.focus();
  };
  const onPanelKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.stopPropagation();
    closePanel();
  };

  const badge = isAdmin ? (unreadUsers.size ? String(unreadUsers.size) : null) : unread ? '!' : null;
  const visibleMessages = (conn?.messages ?? []).filter((m) => (isAdmin ? m.userId === selected?.id : true));
  const title = me || user ? CHAT_TEXTS.title : CHAT_TEXTS.welcome;

  return (
    <>
      <button
        ref={launcherRef}
        type="button"
        className={`btn btn-primary rounded-circle shadow shop-chat-button${pulse ? ' shop-chat-pulse' : ''}`}
        aria-label={badge ? `${CHAT_TEXTS.title} (${isAdmin ? `${badge} unread` : 'new message'})` : CHAT_TEXTS.title}
        aria-expanded={open}
        onClick={toggleOpen}
      >
        <svg width="26" height="26" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true"><path d="M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H8l-5 4V5a2 2 0 0 1 1-2z" /></svg>
        {badge && <span className="position-absolute top-0 start-100 translate-middle badge rounded-pill bg-danger" data-testid="chat-badge">{badge}</span>}
      </button>
      {open && (
        <section
          ref={panelRef}
          className="shop-chat-panel card shadow"
          role="dialog"
          aria-modal="false"
          aria-labelledby={titleId}
          tabIndex={-1}
          onKeyDown={onPanelKeyDown}
        >
          <header className="card-header d-flex align-items-center gap-2">
            <h2 id={titleId} className="h6 mb-0 flex-grow-1">{title}</h2>
            {isAdmin && (
              <button type="button" className={`btn btn-sm ${adminAvailable ? 'btn-success' : 'btn-secondary'}`} onClick={() => void onToggleAvailability()} aria-pressed={adminAvailable}>
                {adminAvailable ? CHAT_TEXTS.online : CHAT_TEXTS.offline}
              </button>
            )}
            <button type="button" className="btn-close" aria-label="Close chat" onClick={closePanel} />
          </header>
          <div className="visually-hidden" aria-live="polite" aria-atomic="false" data-testid="chat-announcer">
            {announcements.map((a) => <p key={a.id}>{a.text}</p>)}
          </div>
          {isSignedOut && (
            <div className="alert alert-warning rounded-0 mb-0 py-2 small" role="alert" data-testid="chat-signed-out">
              {SIGNED_OUT_TEXT}{' '}
              <Link to={`/signin?redirect=${encodeURIComponent(location.pathname + location.search)}`} className="alert-link" onClick={closePanel}>{SIGN_IN_TO_CHAT}</Link>
            </div>
          )}
          {me && conn && !isSignedOut && (
            <div className={`small px-3 py-1 border-bottom ${conn.status === 'open' ? 'text-success-emphasis' : 'text-danger-emphasis'}`} role="status" data-testid="chat-connection">
              {STATUS_TEXT[conn.status]}
              {!isAdmin && conn.status === 'open' && (
                <span data-testid="chat-responder">
                  {' · '}{RESPONDER_TEXT[responder ?? (me.kind === 'customer' && anyAdminOnline ? 'admin' : 'ai')]}
                </span>
              )}
            </div>
          )}
          {!me && guest === undefined && !user && <div className="card-body" role="status">Loading…</div>}
          {!me && guest === null && !user && <GuestForm onStarted={setGuest} />}
          {me && isAdmin && !selected && (
            <OnlineUsersList users={onlineUsers} unread={unreadUsers} onSelect={(u) => void selectUser(u)} />
          )}
          {me && (!isAdmin || selected) && conn && (
            <>
              {isAdmin && selected && (
                <div className="px-3 py-2 border-bottom d-flex align-items-center gap-2">
                  <button type="button" className="btn btn-link btn-sm p-0" onClick={() => setSelected(null)}>{CHAT_TEXTS.backToUsers}</button>
                  <h3 className="h6 mb-0 ms-auto text-truncate">{chatWithTitle(selected.name)}</h3>
                </div>
              )}
              <MessageList messages={visibleMessages} me={me} pending={conn.pending} />
              <Composer
                disabled={conn.status !== 'open' || isSignedOut}
                onSend={(text) => {
                  if (isAdmin && !selected) { toast.error(CHAT_TEXTS.selectUser); return false; }
                  return conn.send(text, isAdmin ? selected?.id : undefined) !== null;
                }}
              />
            </>
          )}
        </section>
      )}
    </>
  );
}

function GuestForm({ onStarted }: { onStarted: (g: GuestInfo) => void }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<{ name?: string; email?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const next: typeof errors = {};
    if (!name.trim()) next.name = CHAT_TEXTS.nameRequired;
    if (!GUEST_EMAIL_PATTERN.test(email.trim())) next.email = CHAT_TEXTS.emailInvalid;
    setErrors(next);
    if (next.name || next.email) return;
    setBusy(true);
    try {
      const r = await createGuestSession({ name: name.trim(), email: email.trim() });
      onStarted({ guestId: r.guestId, name: r.name, email: email.trim() });
    } catch {
      setErrors({ form: CHAT_TEXTS.guestSessionFailed });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card-body overflow-auto" onSubmit={(e) => void submit(e)} noValidate>
      {errors.form && <div className="alert alert-danger py-2" role="alert">{errors.form}</div>}
      <div className="mb-2">
        <label htmlFor="chat-guest-name" className="form-label">{CHAT_TEXTS.yourName}</label>
        <input id="chat-guest-name" className={`form-control${errors.name ? ' is-invalid' : ''}`} value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" aria-invalid={Boolean(errors.name)} aria-describedby={errors.name ? 'chat-guest-name-error' : undefined} />
        {errors.name && <div id="chat-guest-name-error" className="invalid-feedback">{errors.name}</div>}
      </div>
      <div className="mb-3">
        <label htmlFor="chat-guest-email" className="form-label">{CHAT_TEXTS.yourEmail}</label>
        <input id="chat-guest-email" type="email" className={`form-control${errors.email ? ' is-invalid' : ''}`} value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" aria-invalid={Boolean(errors.email)} aria-describedby={errors.email ? 'chat-guest-email-error' : undefined} />
        {errors.email && <div id="chat-guest-email-error" className="invalid-feedback">{errors.email}</div>}
      </div>
      <button type="submit" className="btn btn-primary w-100" disabled={busy}>{CHAT_TEXTS.startChatting}</button>
    </form>
  );
}

function OnlineUsersList({ users, unread, onSelect }: { users: OnlineUser[]; unread: Set<string>; onSelect: (u: OnlineUser) => void }) {
  return (
    <div className="card-body overflow-auto p-0">
      <h3 className="h6 px-3 pt-3">{onlineUsersTitle(users.length)}</h3>
      {users.length === 0 ? (
        <p className="px-3 text-body-secondary">{CHAT_TEXTS.noUsersOnline}</p>
      ) : (
        <ul className="list-group list-group-flush">
          {users.map((u) => (
            <li key={u.id} className="list-group-item p-0">
              <button type="button" className="btn w-100 text-start px-3 py-2" onClick={() => onSelect(u)}>
                <span className="d-flex align-items-center gap-2">
                  <strong className="text-truncate">{u.name}</strong>
                  <span className="badge bg-success">online</span>
                  {unread.has(u.id) && <span className="badge bg-danger">New</span>}
                </span>
                <span className="d-block small text-body-secondary text-truncate">{u.email}</span>
                <span className="d-block small text-body-secondary">Last seen {formatClockTime(u.lastSeen)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function MessageList({ messages, me, pending }: { messages: ChatMessage[]; me: NonNullable<Me>; pending: Map<string, { content: string }> }) {
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => { end.current?.scrollIntoView?.({ block: 'end' }); }, [messages.length, pending.size]);
  const label = (m: ChatMessage) => {
    if (m.sender === 'ai') return CHAT_TEXTS.ai;
    if (m.senderId === me.id) return CHAT_TEXTS.you;
    if (m.sender === 'admin') return CHAT_TEXTS.admin;
    return m.senderName;
  };
  return (
    // Not a live region: the history is not read out again; new messages go to the widget's announcer.
    <div className="card-body overflow-auto shop-chat-messages" role="region" aria-label="Messages" tabIndex={0}>
      {messages.map((m) => {
        const mine = m.senderId === me.id;
        const fallback = m.sender === 'ai' && m.fallback === true;
        return (
          <div key={m.id} className={`mb-2 d-flex flex-column ${mine ? 'align-items-end' : 'align-items-start'}`} data-testid="chat-message" data-fallback={fallback || undefined}>
            <span className="small text-body-secondary">
              <span className="fw-semibold">{label(m)}</span> <time dateTime={m.timestamp}>{formatClockTime(m.timestamp)}</time>
              {fallback && <span className="badge text-bg-warning ms-1" data-testid="chat-fallback-label">{FALLBACK_LABEL}</span>}
            </span>
            <span className={`shop-chat-bubble ${mine ? 'bg-primary text-white' : 'bg-body-secondary'}${fallback ? ' border border-warning-subtle' : ''}`}>
              <MessageText content={m.content} fromAssistant={m.sender === 'ai'} />
            </span>
          </div>
        );
      })}
      {[...pending.entries()].map(([clientId, p]) => (
        <div key={clientId} className="mb-2 d-flex flex-column align-items-end opacity-75">
          <span className="small text-body-secondary"><span className="fw-semibold">{CHAT_TEXTS.you}</span> sending…</span>
          <span className="shop-chat-bubble bg-primary text-white">{p.content}</span>
        </div>
      ))}
      <div ref={end} />
    </div>
  );
}

function Composer({ disabled, onSend }: { disabled: boolean; onSend: (text: string) => boolean }) {
  const [text, setText] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) { setText(''); return; }
    if (onSend(text)) setText('');
  };
  return (
    <form className="card-footer d-flex gap-2" onSubmit={submit}>
      <label htmlFor="chat-input" className="visually-hidden">Message</label>
      <input id="chat-input" className="form-control" placeholder={CHAT_TEXTS.placeholder} value={text} onChange={(e) => setText(e.target.value)} disabled={disabled} maxLength={2000} autoComplete="off" />
      <button type="submit" className="btn btn-primary" disabled={disabled}>{CHAT_TEXTS.send}</button>
    </form>
  );
}
