import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { COOKIE_NOTICE_DELAY_MS, CookieNotice } from './CookieNotice';

const TEXT = 'This website uses cookies to ensure you get the best experience on our website. Learn more';

describe('CookieNotice', () => {
  afterEach(() => document.documentElement.removeAttribute('data-cookie-consent'));

  it("is in the page from the first render, held back 1 s by its style, with the spec's text and a Learn more link to /privacy", () => {
    expect(COOKIE_NOTICE_DELAY_MS).toBe(1000);
    // The server renders it too (so it shows a second after the first paint, before any JavaScript ran).
    expect(renderToString(<MemoryRouter><CookieNotice /></MemoryRouter>)).toContain('aria-label="Cookie notice" style="animation-delay:1000ms"');
    renderWithProviders(<CookieNotice />);
    const notice = screen.getByRole('region', { name: 'Cookie notice' });
    // styles.css: `.shop-cookie-notice` is hidden by an animation for this delay.
    expect(notice).toHaveClass('shop-cookie-notice');
    expect(notice.style.animationDelay).toBe('1000ms');
    expect(notice.querySelector('p')).toHaveTextContent(TEXT);
    expect(screen.getByRole('link', { name: 'Learn more about how we use cookies' })).toHaveAttribute('href', '/privacy');
    expect(screen.getByRole('button', { name: 'Got it' })).toBeInTheDocument();
  });

  it("'Got it' hides it, is remembered in localStorage cookieConsent, and it is not shown again", async () => {
    const first = renderWithProviders(<CookieNotice />);
    await userEvent.click(await screen.findByRole('button', { name: 'Got it' }));
    expect(screen.queryByRole('region', { name: 'Cookie notice' })).toBeNull();
    expect(localStorage.getItem('cookieConsent')).toBe('true');
    // The mark the head script sets on the next page (styles.css hides the notice under it).
    expect(document.documentElement).toHaveAttribute('data-cookie-consent');
    first.unmount();

    renderWithProviders(<CookieNotice />);
    await act(async () => {});
    expect(screen.queryByRole('region', { name: 'Cookie notice' })).toBeNull();
  });
});
