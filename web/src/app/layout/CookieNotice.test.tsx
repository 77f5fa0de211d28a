import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { CookieNotice } from './CookieNotice';

const TEXT = 'This website uses cookies to ensure you get the best experience on our website. Learn more';

describe('CookieNotice', () => {
  afterEach(() => vi.useRealTimers());

  it("appears after 1 s with the spec's text and a Learn more link to /privacy", async () => {
    vi.useFakeTimers();
    renderWithProviders(<CookieNotice />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(999);
    });
    expect(screen.queryByRole('region', { name: 'Cookie notice' })).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    const notice = screen.getByRole('region', { name: 'Cookie notice' });
    expect(notice.querySelector('p')).toHaveTextContent(TEXT);
    expect(screen.getByRole('link', { name: 'Learn more about how we use cookies' })).toHaveAttribute('href', '/privacy');
    expect(screen.getByRole('button', { name: 'Got it' })).toBeInTheDocument();
  });

  it("'Got it' hides it and is remembered in localStorage cookieConsent", async () => {
    const first = renderWithProviders(<CookieNotice delayMs={0} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Got it' }));
    expect(screen.queryByRole('region', { name: 'Cookie notice' })).toBeNull();
    expect(localStorage.getItem('cookieConsent')).toBe('true');
    first.unmount();

    vi.useFakeTimers();
    renderWithProviders(<CookieNotice />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5000);
    });
    expect(screen.queryByRole('region', { name: 'Cookie notice' })).toBeNull();
  });
});
