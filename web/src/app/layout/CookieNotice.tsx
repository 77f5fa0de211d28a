import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { readJson, storageKeys, writeJson } from '../../lib/storage';
import { paths } from '../paths';

export const COOKIE_NOTICE_DELAY_MS = 1000;

/** The cookie notice: shown 1 s after load until 'Got it' is pressed (remembered in localStorage cookieConsent). */
export function CookieNotice({ delayMs = COOKIE_NOTICE_DELAY_MS }: { delayMs?: number }) {
  const [isVisible, setIsVisible] = useState(false);

  useEffect(() => {
    if (readJson<boolean>(storageKeys.cookieConsent, false)) return;
    const timer = window.setTimeout(() => setIsVisible(true), delayMs);
    return () => window.clearTimeout(timer);
  }, [delayMs]);

  if (!isVisible) return null;

  const accept = () => {
    writeJson(storageKeys.cookieConsent, true);
    setIsVisible(false);
  };

  return (
    <section className="shop-cookie-notice" role="region" aria-label="Cookie notice">
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
