import type { ChatMessage } from '@shop/contracts/chat-constants';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderPage, stateWith } from '../../../test/catalogue-utils';
import { admin, emailText } from '../../../test/render';
import { BackOfficeChat } from '../components/BackOfficeChat';
import { resetAvailability } from '../lib/admin-availability';
import { FakeSocket } from '../lib/fake-socket';
import { closeChatConnections } from '../lib/shared-connection';
import ChatDetailPage from './ChatDetailPage';
import ChatListPage from './ChatListPage';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));
FakeSocket.wrap = (event) => act(event);

const chatId = 'c'.repeat(24);
const guestId = 'guest_x';
let seq = 0;
const msg = (over: Partial<ChatMessage>): ChatMessage => ({
  id: (++seq).toString(16).padStart(24, '0'), content: 'hi', sender: 'user', timestamp: `2026-01-02T10:00:${String(seq).padStart(2, '0')}.000Z`,
  senderId: guestId, userId: guestId, senderName: 'Gail Guest', senderEmail: 'gail@example.com', recipientId: null, clientId: null, ...over,
});
const question = msg({ content: 'Where is my parcel?', clientId: 'a' });
const summary = {
  _id: chatId, userId: guestId, userName: 'Gail Guest', userEmail: 'gail@example.com', isGuest: true, lastActivity: question.timestamp, messageCount: 1,
  messages: [question],
};
const online = (ids: string[]) => ({ body: { users: ids.map((id) => ({ id, name: 'Gail Guest', email: 'gail@example.com', lastSeen: question.timestamp, isGuest: true })) } });
const toggled = (body: unknown) => ({ body: { isOnline: (body as { isOnline: boolean }).isOnline, message: 'ok' } });

beforeEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
  closeChatConnections();
  resetAvailability();
  localStorage.clear();
  FakeSocket.all = [];
  vi.stubGlobal('WebSocket', FakeSocket);
});

describe('admin chats list', () => {
  it('lists conversations with their unread messages, who is online, Details links; searching asks the server', async () => {
    const api = mockApi({
      'GET chat/all-history': () => ({ body: { chats: [{ ...summary, unread: 2 }, { ...summary, _id: 'd'.repeat(24), userId: 'u2', userName: 'Read Reader', userEmail: 'read@example.com', isGuest: false, unread: 0 }], page: 1, pages: 2, total: 21, unreadConversations: 1 } }),
      'GET chat/online-users': () => online([guestId]),
    });
    renderPage(<ChatListPage />, { route: '/admin/chats', path: '/admin/chats', state: stateWith(admin) });
    const row = (await screen.findByText('Gail Guest')).closest('tr')!;
    expect(within(row).getByTestId('chat-unread')).toHaveTextContent('2 new');
    expect(within(row).getByText('Guest')).toBeInTheDocument();
    expect(await within(row).findByText('online')).toBeInTheDocument();
    expect(within(row).getByText(emailText('gail@example.com'))).toBeInTheDocument();
    expect(within(row).getByText('User: Where is my parcel?')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Details of the chat with Gail Guest' })).toHaveAttribute('href', `/admin/chat/${chatId}`);
    const other = screen.getByText('Read Reader').closest('tr')!;
    expect(within(other).queryByTestId('chat-unread')).toBeNull();
    expect(within(other).queryByText('online')).toBeNull();
    expect(screen.getByRole('link', { name: 'Page 2' })).toHaveAttribute('href', '/admin/chats?page=2');
    await userEvent.type(screen.getByLabelText('Search by name or e-mail'), 'gail{Enter}');
    await vi.waitFor(() => expect(api.calls.filter((c) => c.path === 'chat/all-history').at(-1)!.query.get('search')).toBe('gail'));
  });

  it("the Online switch sets the administrator's availability; a refusal says 'Failed to toggle admin status' and keeps it", async () => {
    let fail = false;
    const api = mockApi({
      'GET chat/all-history': () => ({ body: { chats: [], page: 1, pages: 1, total: 0, unreadConversations: 0 } }),
      'GET chat/online-users': () => online([]),
      'POST chat/toggle-admin-status': ({ body }) => (fail ? { status: 500, body: { message: 'boom' } } : toggled(body)),
    });
    renderPage(<ChatListPage />, { route: '/admin/chats', path: '/admin/chats', state: stateWith(admin) });
    expect(await screen.findByText('No chats found')).toBeInTheDocument();
    const online1 = screen.getByRole('switch', { name: 'Online' });
    expect(online1).toBeChecked();
    await userEvent.click(online1);
    const offline = await screen.findByRole('switch', { name: 'Offline' });
    expect(offline).not.toBeChecked();
    expect(api.calls.filter((c) => c.path === 'chat/toggle-admin-status').map((c) => c.body)).toEqual([{ isOnline: false }]);
    expect(localStorage.getItem('adminStatus')).toBe('false');
    fail = true;
    await userEvent.click(offline);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to toggle admin status'));
    expect(screen.getByRole('switch', { name: 'Offline' })).not.toBeChecked();
  });
});

describe('admin conversation page', () => {
  /** The conversation page with the back office's hold on the socket, as AdminLayout has it. */
  function renderConversation(handlers: Parameters<typeof mockApi>[0] = {}) {
    const api = mockApi({
      [`GET chat/chat/${chatId}`]: () => ({ body: summary }),
      'GET chat/online-users': () => online([guestId]),
      'GET chat/all-history': () => ({ body: { chats: [], page: 1, pages: 1, total: 0, unreadConversations: 0 } }),
      [`POST chat/chat/${chatId}/read`]: () => ({ body: { unread: 0 } }),
      'POST chat/toggle-admin-status': ({ body }) => toggled(body),
      ...handlers,
    });
    const rendered = renderPage(<><BackOfficeChat /><ChatDetailPage /></>, { route: `/admin/chat/${chatId}`, path: '/admin/chat/:id', state: stateWith(admin) });
    return { api, ...rendered };
  }
  const readCalls = (api: ReturnType<typeof mockApi>) => api.calls.filter((c) => c.method === 'POST' && c.path === `chat/chat/${chatId}/read`).map((c) => c.body);

  it('answers the customer live over the one socket of the tab: reply, acknowledgement, the customer\'s next message, marked read', async () => {
    const { api } = renderConversation();
    expect(await screen.findByRole('heading', { level: 1, name: 'Chat with Gail Guest' })).toBeInTheDocument();
    expect(screen.getByText('Where is my parcel?')).toBeInTheDocument();
    expect(await screen.findByText('online')).toBeInTheDocument();
    // The page and the back office share one socket.
    expect(FakeSocket.all).toHaveLength(1);
    const socket = FakeSocket.all[0]!;
    // What is on screen is read, up to the newest message shown.
    await waitFor(() => expect(readCalls(api)).toEqual([{ messageId: question.id }]));

    const reply = screen.getByRole('textbox', { name: 'Reply to Gail Guest' });
    expect(reply).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent('Connecting…');
    socket.open();
    expect(reply).toBeEnabled();
    await userEvent.type(reply, 'It ships today.{Enter}');
    const sent = JSON.parse(socket.sent.find((f) => f.includes('It ships today'))!) as { type: string; content: string; clientId: string; recipientId: string };
    expect(sent).toMatchObject({ type: 'message', content: 'It ships today.', recipientId: guestId });
    expect(reply).toHaveValue('');
    expect(screen.getByText(/sending…/)).toBeInTheDocument();
    const answer = msg({ sender: 'admin', senderId: admin._id, senderName: 'Admin', recipientId: guestId, content: 'It ships today.', clientId: sent.clientId });
    socket.receive({ type: 'ack', clientId: sent.clientId, message: answer });
    expect(await screen.findByText('It ships today.')).toBeInTheDocument();
    expect(screen.queryByText(/sending…/)).toBeNull();
    expect(within(screen.getByText('It ships today.').closest('li')!).getByText('Admin')).toBeInTheDocument();

    // The customer writes again: it appears, is read out, and is marked read.
    const next = msg({ content: 'Thank you!' });
    socket.receive({ type: 'message', message: next });
    expect(await screen.findByText('Thank you!')).toBeInTheDocument();
    expect(screen.getByTestId('conversation-announcer')).toHaveTextContent('Gail Guest: Thank you!');
    await waitFor(() => expect(readCalls(api)).toEqual([{ messageId: question.id }, { messageId: next.id }]));
    // Another conversation's message stays out of this one.
    socket.receive({ type: 'message', message: msg({ userId: 'someone-else', senderId: 'someone-else', content: 'Other chat' }) });
    expect(screen.queryByText('Other chat')).toBeNull();
    // Shift+Enter is a new line, not a send.
    await userEvent.type(reply, 'line one{Shift>}{Enter}{/Shift}line two');
    expect(reply).toHaveValue('line one\nline two');
    expect(socket.sent.filter((f) => f.includes('line one'))).toHaveLength(0);
  });

  it('a message that arrives in a hidden tab is not marked read until the tab is visible again', async () => {
    const { api } = renderConversation();
    await screen.findByText('Where is my parcel?');
    await waitFor(() => expect(readCalls(api)).toHaveLength(1));
    const hidden = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    act(() => { document.dispatchEvent(new Event('visibilitychange')); });
    FakeSocket.all[0]!.open();
    const late = msg({ content: 'Are you there?' });
    FakeSocket.all[0]!.receive({ type: 'message', message: late });
    expect(await screen.findByText('Are you there?')).toBeInTheDocument();
    expect(readCalls(api)).toHaveLength(1);
    hidden.mockReturnValue('visible');
    act(() => { document.dispatchEvent(new Event('visibilitychange')); });
    await waitFor(() => expect(readCalls(api)).toEqual([{ messageId: question.id }, { messageId: late.id }]));
  });

  it('marks a conversation whose person asked for a person, and previews product links as names (issue 36)', async () => {
    const asked = {
      ...summary, _id: 'd'.repeat(24), userId: 'guest_y', userName: 'Walt Waiting', wantsPersonAt: '2026-01-02T10:05:00.000Z',
      messages: [{ ...summary.messages[0], sender: 'ai', senderId: 'ai', content: 'The cheapest smartphone in stock: [Nova Lite Smartphone](/product/nova-lite-smartphone) at $246.75.' }],
    };
    mockApi({ 'GET chat/all-history': () => ({ body: { chats: [summary, asked], page: 1, pages: 1, total: 2 } }) });
    renderPage(<ChatListPage />, { route: '/admin/chats', path: '/admin/chats', state: stateWith(admin) });
    const row = (await screen.findByText('Walt Waiting')).closest('tr')!;
    expect(within(row).getByText('Wants a person')).toBeInTheDocument();
    expect(within(row).getByText('AI Assistant: The cheapest smartphone in stock: Nova Lite Smartphone at $246.75.')).toBeInTheDocument();
    expect(within(screen.getByText('Gail Guest').closest('tr')!).queryByText('Wants a person')).toBeNull();
  });

  it('details page: the assistant\'s product names are links to the product pages; the same markup from the customer is text', async () => {
    const withProducts = { ...summary, messageCount: 2, messages: [
      { ...summary.messages[0], content: 'is [this](/product/evil) a link?' },
      { ...summary.messages[0], id: '2'.repeat(24), sender: 'ai', senderId: 'ai', clientId: null, content: 'See [Buds Pro Earbuds](/product/buds-pro-earbuds).' },
    ] };
    mockApi({ [`GET chat/chat/${chatId}`]: () => ({ body: withProducts }) });
    renderPage(<ChatDetailPage />, { route: `/admin/chat/${chatId}`, path: '/admin/chat/:id', state: stateWith(admin) });
    expect(await screen.findByRole('link', { name: 'Buds Pro Earbuds' })).toHaveAttribute('href', '/product/buds-pro-earbuds');
    expect(screen.getByText('is [this](/product/evil) a link?')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'this' })).toBeNull();
  });

  it('details page shows the messages and a Back button', async () => {
    const { router } = renderConversation();
    expect(await screen.findByText('Where is my parcel?')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(router.state.location.pathname).toBe('/admin/chats');
  });

  it('details page: links in messages are links with rel noopener noreferrer nofollow; an assistant stand-in answer is marked', async () => {
    const ai = (over: Partial<ChatMessage>) => msg({ sender: 'ai', senderId: 'ai', senderName: 'AI Assistant', ...over });
    const withLinks = { ...summary, messageCount: 3, messages: [
      question,
      ai({ content: 'Track it at https://shop.example/orderhistory.', fallback: true }),
      ai({ content: 'Anything else?' }),
    ] };
    renderConversation({ [`GET chat/chat/${chatId}`]: () => ({ body: withLinks }) });
    const link = await screen.findByRole('link', { name: 'https://shop.example/orderhistory' });
    expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    expect(link).toHaveAttribute('target', '_blank');
    expect(screen.getAllByText('Assistant stood in')).toHaveLength(1);
    expect(screen.getByText('Assistant stood in').closest('li')).toHaveTextContent('Track it at');
  });

  it("details page errors: 'Chat not found' and 'Failed to fetch chat details'", async () => {
    renderConversation({ [`GET chat/chat/${chatId}`]: () => ({ status: 404, body: { message: 'Chat not found' } }) });
    expect(await screen.findByRole('alert')).toHaveTextContent('Chat not found');
  });

  it("a server failure shows 'Failed to fetch chat details'", async () => {
    renderConversation({ [`GET chat/chat/${chatId}`]: () => ({ status: 500, body: { message: 'Internal Server Error' } }) });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch chat details');
  });
});
