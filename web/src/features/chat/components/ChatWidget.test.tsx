import type { ChatMessage } from '@shop/contracts/chat-constants';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderPage, stateWith } from '../../../test/catalogue-utils';
import { admin, customer } from '../../../test/render';
import { resetAvailability } from '../lib/admin-availability';
import { FakeSocket } from '../lib/fake-socket';
import { closeChatConnections } from '../lib/shared-connection';
import ChatWidget from './ChatWidget';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));

FakeSocket.wrap = (event) => act(event);

/** A FakeSocket that also dispatches 'close' to addEventListener listeners, like a browser WebSocket. */
class ListenedSocket extends FakeSocket {
  private closeListeners: Array<(ev: { code: number }) => void> = [];
  addEventListener(type: string, listener: (ev: { code: number }) => void) { if (type === 'close') this.closeListeners.push(listener); }
  override drop(code = 1006) {
    FakeSocket.wrap(() => {
      this.readyState = 3;
      for (const l of this.closeListeners) l({ code });
      this.onclose?.({ code });
    });
  }
}

const msg = (over: Partial<ChatMessage>): ChatMessage => ({
  id: Math.random().toString(16).slice(2).padEnd(24, '0'), content: 'hi', sender: 'user', timestamp: new Date().toISOString(),
  senderId: 'x', userId: 'x', senderName: 'X', senderEmail: 'x@example.com', recipientId: null, clientId: null, ...over,
});

beforeEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
  closeChatConnections();
  resetAvailability();
  FakeSocket.all = [];
  vi.stubGlobal('WebSocket', ListenedSocket);
  vi.stubGlobal('Audio', class { volume = 1; play() { return Promise.resolve(); } });
});

describe('ChatWidget', () => {
  it('guest: form with the spec texts and validation, then the AI greeting; Send disabled while disconnected', async () => {
    const guestId = 'guest_abc';
    const api = mockApi({
      'GET chat/verify-guest': () => ({ body: { success: false } }),
      'POST chat/guest-session': () => ({ body: { name: 'Gail', guestId } }),
      'GET chat/guest-history': () => ({ body: { messages: [msg({ sender: 'ai', senderId: 'ai', userId: guestId, content: 'Hello Gail! Welcome to our shop. How can I help you today?' })] } }),
    });
    renderPage(<ChatWidget initiallyOpen />);
    const dialog = await screen.findByRole('dialog', { name: 'Welcome to Chat' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Start Chatting' }));
    expect(within(dialog).getByText('Please enter your name')).toBeInTheDocument();
    expect(within(dialog).getByText('Please enter a valid email address')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Your Name'), 'Gail');
    await userEvent.type(within(dialog).getByLabelText('Your Email'), 'gail@example.com');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Start Chatting' }));
    expect(api.callsTo('POST chat/guest-session')[0]!.body).toEqual({ name: 'Gail', email: 'gail@example.com' });
    await screen.findByRole('dialog', { name: 'Chat Support' });
    expect(await screen.findByPlaceholderText('Type your message...')).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    FakeSocket.all[0]!.open();
    expect(await screen.findByText('Hello Gail! Welcome to our shop. How can I help you today?')).toBeInTheDocument();
    expect(screen.getByText('AI Assistant')).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Type your message...')).toBeEnabled();
    await userEvent.type(screen.getByPlaceholderText('Type your message...'), '<b>not bold</b>{Enter}');
    const sent = JSON.parse(FakeSocket.all[0]!.sent.at(-1)!) as { content: string; clientId: string };
    expect(sent.content).toBe('<b>not bold</b>');
    FakeSocket.all[0]!.receive({ type: 'ack', clientId: sent.clientId, message: msg({ senderId: guestId, userId: guestId, content: '<b>not bold</b>', clientId: sent.clientId }) });
    expect(await screen.findByText('<b>not bold</b>')).toBeInTheDocument(); // shown as text
    expect(screen.getAllByText('You')).toHaveLength(1);
    FakeSocket.all[0]!.drop();
    expect(screen.getByTestId('chat-connection')).toHaveTextContent('Reconnecting…');
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
  });

  it('guest: a failed session shows the spec error', async () => {
    mockApi({
      'GET chat/verify-guest': () => ({ body: { success: false } }),
      'POST chat/guest-session': () => ({ status: 500, body: { message: 'Internal Server Error' } }),
    });
    renderPage(<ChatWidget initiallyOpen />);
    await userEvent.type(await screen.findByLabelText('Your Name'), 'Gail');
    await userEvent.type(screen.getByLabelText('Your Email'), 'gail@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Start Chatting' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to create guest session. Please try again.');
  });

  it("customer: an administrator's message while the panel is closed shows '!' and opening clears it", async () => {
    mockApi({ 'GET chat/history': () => ({ body: [] }) });
    renderPage(<ChatWidget />, { state: stateWith(customer) });
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.receive({ type: 'message', message: msg({ sender: 'admin', senderId: admin._id, userId: customer._id, content: 'Hello Jane' }) });
    expect(await screen.findByTestId('chat-badge')).toHaveTextContent('!');
    await userEvent.click(screen.getByRole('button', { name: /Chat Support/ }));
    expect(screen.queryByTestId('chat-badge')).not.toBeInTheDocument();
    expect(screen.getByText('Hello Jane')).toBeInTheDocument();
    expect(screen.getByText('Admin')).toBeInTheDocument();
  });

  it('administrator: online users, New badge and unread count, Chat with {name}, back, toggle failure toast', async () => {
    const jane = { id: customer._id, name: 'Jane Customer', email: 'jane@example.com', lastSeen: new Date().toISOString(), isGuest: false };
    const api = mockApi({
      'POST chat/toggle-admin-status': (call) => (api.callsTo('POST chat/toggle-admin-status').length > 1 ? { status: 500, body: { message: 'x' } } : { body: { isOnline: (call.body as { isOnline: boolean }).isOnline, message: 'ok' } }),
      'GET chat/online-users': () => ({ body: { users: [] } }),
      'GET chat/admin-status': () => ({ body: { isOnline: true } }),
      [`GET chat/user-messages/${customer._id}`]: () => ({ body: { messages: [msg({ senderId: customer._id, userId: customer._id, senderName: 'Jane Customer', content: 'Earlier question' })] } }),
    });
    renderPage(<ChatWidget />, { state: stateWith(admin) });
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    FakeSocket.all[0]!.open();
    await userEvent.click(screen.getByRole('button', { name: 'Chat Support' }));
    expect(await screen.findByText('Online Users (0)')).toBeInTheDocument();
    expect(screen.getByText('No users online')).toBeInTheDocument();
    FakeSocket.all[0]!.receive({ type: 'user-connected', user: jane });
    // The first toast loads react-toastify (lib/toast), so it is sent a moment later.
    await waitFor(() => expect(toast.info).toHaveBeenCalledWith('New user online: Jane Customer'));
    FakeSocket.all[0]!.receive({ type: 'online-users', users: [jane] });
    expect(await screen.findByText('Online Users (1)')).toBeInTheDocument();
    FakeSocket.all[0]!.receive({ type: 'message', message: msg({ senderId: customer._id, userId: customer._id, content: 'Anyone there?' }) });
    expect(await screen.findByText('New')).toBeInTheDocument();
    expect(screen.getByTestId('chat-badge')).toHaveTextContent('1');
    expect(screen.getByText('online')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Jane Customer/ }));
    expect(await screen.findByText('Chat with Jane Customer')).toBeInTheDocument();
    expect(await screen.findByText('Earlier question')).toBeInTheDocument();
    expect(screen.getByText('Anyone there?')).toBeInTheDocument();
    expect(screen.queryByTestId('chat-badge')).not.toBeInTheDocument();
    await userEvent.type(screen.getByPlaceholderText('Type your message...'), 'Hi Jane{Enter}');
    expect(JSON.parse(FakeSocket.all[0]!.sent.at(-1)!)).toMatchObject({ content: 'Hi Jane', recipientId: customer._id });
    await userEvent.click(screen.getByRole('button', { name: '← Back to users' }));
    expect(screen.getByText('Online Users (1)')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Online' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to toggle admin status'));
  });

  it('keyboard: the panel takes focus when opened; Esc closes it and gives focus back to the chat button', async () => {
    mockApi({ 'GET chat/history': () => ({ body: [] }) });
    renderPage(<ChatWidget />, { state: stateWith(customer) });
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    const launcher = screen.getByRole('button', { name: 'Chat Support' });
    await userEvent.tab();
    expect(launcher).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Chat Support' });
    // Not connected yet, so the message field is disabled: the panel itself has focus.
    expect(dialog).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(launcher).toHaveFocus();
    // Connected: opening puts the caret in the message field; Esc from there closes too.
    FakeSocket.all[0]!.open();
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByPlaceholderText('Type your message...')).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(launcher).toHaveFocus();
    // The close button returns focus as well.
    await userEvent.keyboard('{Enter}');
    await userEvent.click(await screen.findByRole('button', { name: 'Close chat' }));
    expect(launcher).toHaveFocus();
  });

  it('screen readers hear new messages from others once, never the history or their own', async () => {
    mockApi({ 'GET chat/history': () => ({ body: [{ _id: 'c', messages: [msg({ sender: 'ai', senderId: 'ai', userId: customer._id, content: 'Earlier answer' })] }] }) });
    renderPage(<ChatWidget initiallyOpen />, { state: stateWith(customer) });
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    FakeSocket.all[0]!.open();
    expect(await screen.findByText('Earlier answer')).toBeInTheDocument();
    const announcer = screen.getByTestId('chat-announcer');
    expect(announcer).toHaveAttribute('aria-live', 'polite');
    expect(announcer).toBeEmptyDOMElement();
    // The message list itself is not a live region (it would read the history out again).
    const list = screen.getByRole('region', { name: 'Messages' });
    expect(list).not.toHaveAttribute('aria-live');
    await userEvent.type(screen.getByPlaceholderText('Type your message...'), 'Is anyone there?{Enter}');
    const sent = JSON.parse(FakeSocket.all[0]!.sent.at(-1)!) as { clientId: string };
    FakeSocket.all[0]!.receive({ type: 'ack', clientId: sent.clientId, message: msg({ senderId: customer._id, userId: customer._id, content: 'Is anyone there?', clientId: sent.clientId }) });
    FakeSocket.all[0]!.receive({ type: 'message', message: msg({ sender: 'admin', senderId: admin._id, userId: customer._id, content: 'Hello Jane, how can I help?' }) });
    await waitFor(() => expect(announcer).toHaveTextContent('Admin: Hello Jane, how can I help?'));
    expect(announcer).not.toHaveTextContent('Is anyone there?');
    expect(announcer).not.toHaveTextContent('Earlier answer');
    expect(announcer.children).toHaveLength(1);
  });

  it('shows who is answering, and an assistant message that stands in for an administrator distinctly', async () => {
    mockApi({ 'GET chat/history': () => ({ body: [] }) });
    renderPage(<ChatWidget initiallyOpen />, { state: stateWith(customer) });
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    FakeSocket.all[0]!.open();
    // Before the server says, no administrator is known to be online: the assistant answers.
    expect(await screen.findByTestId('chat-responder')).toHaveTextContent('Our assistant is answering…');
    FakeSocket.all[0]!.receive({ type: 'responder', responder: 'admin', replyWithinSeconds: 30 });
    expect(screen.getByTestId('chat-responder')).toHaveTextContent('An administrator is answering');
    FakeSocket.all[0]!.receive({ type: 'message', message: msg({ sender: 'ai', senderId: 'ai', userId: customer._id, content: 'An administrator will follow up.', fallback: true }) });
    FakeSocket.all[0]!.receive({ type: 'message', message: msg({ sender: 'ai', senderId: 'ai', userId: customer._id, content: 'Plain answer' }) });
    FakeSocket.all[0]!.receive({ type: 'responder', responder: 'ai' });
    expect(screen.getByTestId('chat-responder')).toHaveTextContent('Our assistant is answering…');
    const [fallback, plain] = screen.getAllByTestId('chat-message');
    expect(fallback).toHaveAttribute('data-fallback', 'true');
    expect(within(fallback!).getByTestId('chat-fallback-label')).toHaveTextContent('standing in for an administrator');
    expect(plain).not.toHaveAttribute('data-fallback');
    expect(within(plain!).queryByTestId('chat-fallback-label')).not.toBeInTheDocument();
    // Each message shows its time as the shop writes clock times: 'hh:mm AM/PM', local time.
    const time = plain!.querySelector('time')!;
    const at = time.getAttribute('datetime')!;
    expect(time).toHaveTextContent(new Date(at).toLocaleTimeString('en-US', { hour: '2-digit', minute: '2-digit', hour12: true }));
    expect(time.textContent).toMatch(/^\d{2}:\d{2} (AM|PM)$/);
  });

  it('a guest always sees that the assistant answers', async () => {
    mockApi({ 'GET chat/verify-guest': () => ({ body: { success: true, guestId: 'guest_x', name: 'Gail', email: 'g@example.com' } }), 'GET chat/guest-history': () => ({ body: { messages: [] } }) });
    renderPage(<ChatWidget initiallyOpen />);
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    FakeSocket.all[0]!.open();
    expect(await screen.findByTestId('chat-responder')).toHaveTextContent('Our assistant is answering…');
  });

  it('links in messages open in a new tab with rel noopener noreferrer nofollow; other text stays text', async () => {
    mockApi({ 'GET chat/history': () => ({ body: [] }) });
    renderPage(<ChatWidget initiallyOpen />, { state: stateWith(customer) });
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.receive({ type: 'message', message: msg({ sender: 'ai', senderId: 'ai', userId: customer._id, content: 'See https://shop.example/product/mug. Not javascript:alert(1)' }) });
    const link = await screen.findByRole('link', { name: 'https://shop.example/product/mug' });
    expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    expect(link).toHaveAttribute('target', '_blank');
    expect(screen.getAllByRole('link')).toHaveLength(1);
  });

  it('closed as signed out (4401): a signed-out notice with a sign-in link, no reconnecting, Send disabled', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      mockApi({ 'GET chat/history': () => ({ body: [] }) });
      renderPage(<ChatWidget initiallyOpen />, { state: stateWith(customer), route: '/cart', path: '/cart' });
      await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
      FakeSocket.all[0]!.open();
      expect(await screen.findByPlaceholderText('Type your message...')).toBeEnabled();
      FakeSocket.all[0]!.drop(4401);
      const notice = await screen.findByTestId('chat-signed-out');
      expect(notice).toHaveAttribute('role', 'alert');
      expect(notice).toHaveTextContent('You have been signed out of the chat.');
      expect(within(notice).getByRole('link', { name: 'Sign in to chat again' })).toHaveAttribute('href', '/signin?redirect=%2Fcart');
      expect(screen.getByPlaceholderText('Type your message...')).toBeDisabled();
      expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
      await act(async () => { await vi.advanceTimersByTimeAsync(12_000); });
      expect(FakeSocket.all).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('an ordinary drop still reconnects (and shows no signed-out notice)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      mockApi({ 'GET chat/history': () => ({ body: [] }) });
      renderPage(<ChatWidget initiallyOpen />, { state: stateWith(customer) });
      await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
      FakeSocket.all[0]!.open();
      FakeSocket.all[0]!.drop(1006);
      await act(async () => { await vi.advanceTimersByTimeAsync(6_000); });
      expect(FakeSocket.all).toHaveLength(2);
      expect(screen.queryByTestId('chat-signed-out')).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });
});
