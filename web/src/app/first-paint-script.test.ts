import { FIRST_PAINT_SCRIPT } from '@shop/contracts/theme';
import { afterEach, describe, expect, it } from 'vitest';

/** Runs the head script as the browser does before the first paint. */
const runHeadScript = () => new Function(FIRST_PAINT_SCRIPT)();
const html = document.documentElement;

describe('the head script of every page (contracts/src/theme.ts)', () => {
  afterEach(() => {
    localStorage.clear();
    html.removeAttribute('data-cookie-consent');
    html.removeAttribute('data-bs-theme');
  });

  it('sets the stored theme, and marks an accepted cookie notice', () => {
    localStorage.setItem('mode', '"dark"');
    localStorage.setItem('cookieConsent', 'true');
    runHeadScript();
    expect(html.getAttribute('data-bs-theme')).toBe('dark');
    expect(html.hasAttribute('data-cookie-consent')).toBe(true);
  });

  it('leaves the notice unmarked without consent (or with anything else stored) and falls back to the system theme', () => {
    for (const stored of [null, 'false', 'yes', '{"x":1}']) {
      if (stored === null) localStorage.removeItem('cookieConsent');
      else localStorage.setItem('cookieConsent', stored);
      localStorage.setItem('mode', 'not json');
      runHeadScript();
      expect(html.hasAttribute('data-cookie-consent'), String(stored)).toBe(false);
      expect(['light', 'dark']).toContain(html.getAttribute('data-bs-theme'));
    }
  });
});
