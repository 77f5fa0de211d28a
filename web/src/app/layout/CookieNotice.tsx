import { useEffect, useState, type CSSProperties } from 'react';
import { Link } from 'react-router';
import { readJson, storageKeys, writeJson } from '../../lib/storage';
import { paths } from '../../lib/paths';

export const COOKIE_NOTICE_DELAY_MS = 1000;

/**
 * The cookie notice: it appears 1 s after the page does until 'Got it' is pressed (remembered in
 * localStorage cookieConsent). It is in the page from the start, server-rendered pages included, and
 * a CSS animation holds it hidden for the delay (`.shop-cookie-notice` in styles.css): it shows a
 * second after the first paint, not a second after the page's JavaScript has loaded and run (seconds
 * later on a slow phone). A visitor who accepted it never sees it: the head script marks
 * `<html data-cookie-consent>` before the first paint, which hides it, and the effect below removes it.
 */
export function CookieNotice({ delayMs = COOKIE_NOTICE_DELAY_MS }: { delayMs?: number }) {
  // Shown in the first render, on the server and in the browser alike (so hydration matches).
  const [isVisible, setIsVisible] = useState(true);

  useEffect(() => {
    if (readJson<boolean>(storageKeys.cookieConsent, false)) setIsVisible(false);
  }, []);

  if (!isVisible) return null;

  const accept = () => {
    writeJson(storageKeys.cookieConsent, true);
    document.documentElement.setAttribute('data-cookie-consent', '');
    setIsVisible(false);
  };
  const delay: CSSProperties = { animationDelay: `${delayMs}ms` };

  return (
    <section className="shop-cookie-notice" role="region" aria-label="Cookie notice" style={delay}>
      <div className="container d-flex flex-column flex-sm-row align-items-center justify-content-between gap-2 py-2">
        <p className="mb-0 small">
          This website uses cookies to ensure you get the best experience on our website. <Link to={paths.privacy}>
            Learn more{' '}<span className="visually-hidden">about how we use cookies</span>
          </Link>
        </p>
        <button type="button" className="btn btn-warning btn-sm flex-shrink-0" onClick={accept}>
          Got it
        </button>
      </div>
    </section>
  );
}
