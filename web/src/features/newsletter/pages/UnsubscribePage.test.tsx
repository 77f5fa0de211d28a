import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderWithProviders } from '../../../test/render';
import UnsubscribePage from './UnsubscribePage';

afterEach(() => vi.unstubAllGlobals());

describe('UnsubscribePage', () => {
  it('unsubscribes with the token from the link after a click', async () => {
    const { callsTo } = mockApi({ 'POST newsletter/unsubscribe': () => ({ body: { message: 'You have been unsubscribed from the newsletter.' } }) });
    renderWithProviders(<UnsubscribePage />, { route: '/newsletter/unsubscribe?token=abc-123', path: '/newsletter/unsubscribe' });
    expect(callsTo('POST newsletter/unsubscribe')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    expect(await screen.findByText('You have been unsubscribed from the newsletter.')).toBeInTheDocument();
    expect(callsTo('POST newsletter/unsubscribe')[0]?.body).toEqual({ token: 'abc-123' });
  });

  it("shows the server's refusal and a missing token", async () => {
    mockApi({ 'POST newsletter/unsubscribe': () => ({ status: 400, body: { message: 'This unsubscribe link is invalid.' } }) });
    const first = renderWithProviders(<UnsubscribePage />, { route: '/newsletter/unsubscribe?token=zzz', path: '/newsletter/unsubscribe' });
    await userEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This unsubscribe link is invalid.');
    first.unmount();
    renderWithProviders(<UnsubscribePage />, { route: '/newsletter/unsubscribe', path: '/newsletter/unsubscribe' });
    expect(screen.getByText('This unsubscribe link is invalid.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).toBeNull();
  });
});
