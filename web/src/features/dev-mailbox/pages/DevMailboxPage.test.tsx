import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderWithProviders } from '../../../test/render';
import DevMailboxPage from './DevMailboxPage';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('DevMailboxPage', () => {
  it('lists the kept mail with the page explained once the mailbox answers', async () => {
    mockApi({
      'GET dev/mailbox': () => ({
        body: { messages: [{ id: 'm1', to: 'new@example.com', subject: 'Confirm your e-mail', text: 'Open http://localhost:3000/confirm?token=abc', createdAt: '2026-11-27T10:00:00.000Z', sentAt: null, erased: false }] },
      }),
    });
    renderWithProviders(<DevMailboxPage />);
    expect(await screen.findByRole('heading', { name: 'Confirm your e-mail' })).toBeInTheDocument();
    expect(screen.getByText(/No mail server is configured/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'http://localhost:3000/confirm?token=abc' })).toBeInTheDocument();
  });

  it('is the not-found page where the shop has no mailbox (404), and never claims there is no mail server', async () => {
    mockApi({ 'GET dev/mailbox': () => ({ status: 404, body: { message: 'Not Found' } }) });
    renderWithProviders(<DevMailboxPage />);
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.queryByText(/No mail server is configured/)).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Development mailbox' })).not.toBeInTheDocument();
  });
});
