import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router';

const STORAGE_KEY = 'shop-scroll-positions';

function loadPositions(): Record<string, number> {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}') as unknown;
    return saved && typeof saved === 'object' ? (saved as Record<string, number>) : {};
  } catch {
    return {};
  }
}

function decodeHash(hash: string): string {
  try {
    return decodeURIComponent(hash.slice(1));
  } catch {
    return hash.slice(1);
  }
}

/** Scroll position per history entry (location.key), kept for the tab's session across reloads. */
let positions: Record<string, number> | null = null;
const getPositions = () => (positions ??= loadPositions());

/** Frames (about 1 s) during which a restored position is tried again while the page is too short for it. */
const RESTORE_FRAMES = 60;

/**
 * A page returned to may not be tall enough yet for where the shopper was (its list or images still
 * arriving), so the first scrollTo stops short: try again on the next frames, until the position is
 * reached, about a second has passed, or the shopper scrolls or types first. Returns the cleanup.
 */
function restoreWhenTallEnough(y: number): () => void {
  let frames = 0;
  let frame = requestAnimationFrame(function again() {
    if (Math.abs(window.scrollY - y) <= 1 || frames++ >= RESTORE_FRAMES) return;
    window.scrollTo(0, y);
    frame = requestAnimationFrame(again);
  });
  const stop = () => cancelAnimationFrame(frame);
  const events = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const;
  for (const e of events) window.addEventListener(e, stop, { once: true, passive: true });
  return () => {
    stop();
    for (const e of events) window.removeEventListener(e, stop);
  };
}

/**
 * How the browser says this document was loaded: 'navigate' (a link, an address typed, a bookmark),
 * 'reload', 'back_forward' (back or forward to an entry whose document was not kept), 'prerender';
 * undefined when it cannot say.
 */
function documentNavigationType(): string | undefined {
  try {
    return (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.type;
  } catch {
    return undefined;
  }
}

/**
 * The key a position is kept under. An entry the app pushed has its own key; the first entry of a
 * document loaded in full has React Router's 'default' for every document of the tab, so the address
 * tells those apart (otherwise a product page loaded in full would open where the search page before
 * it was scrolled to).
 */
const positionKey = (key: string, path: string) => (key === 'default' ? `default:${path}` : key);

/**
 * What React Router's ScrollRestoration does for a data router, for the declarative router the app
 * uses (the data router's code would be a large part of the initial chunk), as a shop's pages behave:
 * - a new page opens at the top (or at its #hash element): a link followed in the app, and a page
 *   loaded in full from a link or an address (which the browser itself opens at the top; nothing
 *   kept from another page of the tab is applied to it);
 * - back/forward returns to where the shopper was on that entry, within the app and to a page loaded
 *   in full;
 * - a reload keeps the place, as browsers do (a shopper reloading a long list stays in it).
 */
export function ScrollRestoration() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const path = location.pathname + location.search;
  // The entry on screen, read by the scroll listener (set before any scroll event of the new page).
  const currentKey = useRef(positionKey(location.key, path));
  // The first render is the document's own load; later ones are the app's navigations.
  const isDocumentLoad = useRef(true);

  useEffect(() => {
    if ('scrollRestoration' in window.history) window.history.scrollRestoration = 'manual';
    const onScroll = () => {
      getPositions()[currentKey.current] = window.scrollY;
    };
    const save = () => {
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify(getPositions()));
      } catch {
        // Storage full or unavailable: the positions are kept for this page only.
      }
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('pagehide', save);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('pagehide', save);
      window.history.scrollRestoration = 'auto';
    };
  }, []);

  useLayoutEffect(() => {
    const key = positionKey(location.key, path);
    currentKey.current = key;
    const saved = getPositions()[key];
    const documentLoad = isDocumentLoad.current;
    isDocumentLoad.current = false;
    if (documentLoad) {
      const how = documentNavigationType();
      // Back/forward to this document, or a reload: where the shopper was on that entry.
      if ((how === 'back_forward' || how === 'reload') && typeof saved === 'number') {
        window.scrollTo(0, saved);
        return restoreWhenTallEnough(saved);
      }
      // A page loaded in full from a link or an address: the browser opened it at the top (or at its
      // #hash), and the shopper may already have scrolled the server's page: nothing to do but forget
      // a position this entry may hold from before.
      delete getPositions()[key];
      return undefined;
    }
    // Back/forward within the app: where the shopper was on that entry.
    if (navigationType === 'POP' && typeof saved === 'number') {
      window.scrollTo(0, saved);
      return restoreWhenTallEnough(saved);
    }
    const target = location.hash ? document.getElementById(decodeHash(location.hash)) : null;
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [location.key, location.hash, navigationType, path]);

  return null;
}
