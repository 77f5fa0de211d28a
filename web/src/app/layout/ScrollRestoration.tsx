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
 * What React Router's ScrollRestoration does for a data router, for the declarative router the app
 * uses (the data router's code would be a large part of the initial chunk): a new page opens at the
 * top (or at its #hash element); back/forward and a reload return to where the shopper was on that
 * history entry.
 */
export function ScrollRestoration() {
  const location = useLocation();
  const navigationType = useNavigationType();
  // The entry on screen, read by the scroll listener (set before any scroll event of the new page).
  const currentKey = useRef(location.key);

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
    currentKey.current = location.key;
    const saved = getPositions()[location.key];
    // Back/forward, and a reload (the first render is a POP too): where the shopper was on that entry.
    if (navigationType === 'POP' && typeof saved === 'number') {
      window.scrollTo(0, saved);
      return restoreWhenTallEnough(saved);
    }
    const target = location.hash ? document.getElementById(decodeHash(location.hash)) : null;
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [location.key, location.hash, navigationType]);

  return null;
}
