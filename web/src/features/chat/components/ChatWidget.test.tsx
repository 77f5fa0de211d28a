import type { ChatMessage } from '@shop/contracts/chat-constants';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderPage, stateWith } from '../../../test/catalogue-utils';
import { admin, customer } from '../../../test/render';
import { FakeSocket } from '../lib/fake-socket';
import ChatWidget from './ChatWidget';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));

FakeSocket.wrap = (event) => act(event);

const msg = (over: Partial<ChatMessage>): ChatMessage => ({
  id: Math.random().toString(16).slice(2).padEnd(24, '0'), content: 'hi', sender: 'user', timestamp: new Date().toISOString(),
  senderId: 'x', userId: 'x', senderName: 'X', senderEmail: 'x@example.com', recipientId: null, clientId: null, ...over,
});

beforeEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
  FakeSocket.all = [];
  vi.stubGlobal('WebSocket', FakeSocket);
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
    expect(toast.info).toHaveBeenCalledWith('New user online: Jane Customer');
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
});
