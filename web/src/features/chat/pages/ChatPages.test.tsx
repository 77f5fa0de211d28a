import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderPage, stateWith } from '../../../test/catalogue-utils';
import { admin } from '../../../test/render';
import ChatDetailPage from './ChatDetailPage';
import ChatListPage from './ChatListPage';

const chatId = 'c'.repeat(24);
const summary = {
  _id: chatId, userId: 'guest_x', userName: 'Gail Guest', userEmail: 'gail@example.com', isGuest: true, lastActivity: '2026-01-02T10:00:00.000Z', messageCount: 2,
  messages: [{ id: '1'.repeat(24), content: 'Where is my parcel?', sender: 'user', timestamp: '2026-01-02T10:00:00.000Z', senderId: 'guest_x', userId: 'guest_x', senderName: 'Gail Guest', senderEmail: 'gail@example.com', recipientId: null, clientId: 'a' }],
};

beforeEach(() => { vi.unstubAllGlobals(); });

describe('admin chat history', () => {
  it('lists conversations with Details links; searching asks the server', async () => {
    const api = mockApi({ 'GET chat/all-history': () => ({ body: { chats: [summary], page: 1, pages: 2, total: 21 } }) });
    renderPage(<ChatListPage />, { route: '/admin/chats', path: '/admin/chats', state: stateWith(admin) });
    const row = (await screen.findByText('Gail Guest')).closest('tr')!;
    expect(within(row).getByText('User: Where is my parcel?')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Details of the chat with Gail Guest' })).toHaveAttribute('href', `/admin/chat/${chatId}`);
    expect(screen.getByRole('link', { name: 'Page 2' })).toHaveAttribute('href', '/admin/chats?page=2');
    await userEvent.type(screen.getByLabelText('Search by name or e-mail'), 'gail{Enter}');
    await vi.waitFor(() => expect(api.calls.at(-1)!.query.get('search')).toBe('gail'));
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
    mockApi({ [`GET chat/chat/${chatId}`]: () => ({ body: summary }) });
    const { router } = renderPage(<ChatDetailPage />, { route: `/admin/chat/${chatId}`, path: '/admin/chat/:id', state: stateWith(admin) });
    expect(await screen.findByText('Where is my parcel?')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(router.state.location.pathname).toBe('/admin/chats');
  });

  it('details page: links in messages are links with rel noopener noreferrer nofollow; an assistant stand-in answer is marked', async () => {
    const ai = (over: Record<string, unknown>) => ({ ...summary.messages[0], sender: 'ai', senderId: 'ai', clientId: null, ...over });
    const withLinks = { ...summary, messageCount: 3, messages: [
      ...summary.messages,
      ai({ id: '2'.repeat(24), content: 'Track it at https://shop.example/orderhistory.', fallback: true }),
      ai({ id: '3'.repeat(24), content: 'Anything else?' }),
    ] };
    mockApi({ [`GET chat/chat/${chatId}`]: () => ({ body: withLinks }) });
    renderPage(<ChatDetailPage />, { route: `/admin/chat/${chatId}`, path: '/admin/chat/:id', state: stateWith(admin) });
    const link = await screen.findByRole('link', { name: 'https://shop.example/orderhistory' });
    expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    expect(link).toHaveAttribute('target', '_blank');
    expect(screen.getAllByText('Assistant stood in')).toHaveLength(1);
    expect(screen.getByText('Assistant stood in').closest('li')).toHaveTextContent('Track it at');
  });

  it("details page errors: 'Chat not found' and 'Failed to fetch chat details'", async () => {
    mockApi({ [`GET chat/chat/${chatId}`]: () => ({ status: 404, body: { message: 'Chat not found' } }) });
    renderPage(<ChatDetailPage />, { route: `/admin/chat/${chatId}`, path: '/admin/chat/:id', state: stateWith(admin) });
    expect(await screen.findByRole('alert')).toHaveTextContent('Chat not found');
  });

  it("a server failure shows 'Failed to fetch chat details'", async () => {
    mockApi({ [`GET chat/chat/${chatId}`]: () => ({ status: 500, body: { message: 'Internal Server Error' } }) });
    renderPage(<ChatDetailPage />, { route: `/admin/chat/${chatId}`, path: '/admin/chat/:id', state: stateWith(admin) });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch chat details');
  });
});
