/**
 * Clicks made on the server's page before the app started (issue 36.3): index.html's head script
 * (contracts/src/theme.ts, EARLY_CLICK_SCRIPT) keeps a click on any control marked
 * `data-early="<key>"`; the app replays them once it is live, so a button is never dead on the first
 * paint and never counted twice. A key names one control on the page (the same on the server and in
 * the browser): `earlyKey('add-to-cart')`, `earlyKey('variant', 'Size', 'M')`.
 */
interface EarlyClicks {
  kept: () => string[];
  replay: () => void;
}

declare global {
  interface Window {
    __shopEarlyClicks?: EarlyClicks;
  }
}

/** The `data-early` key of a control: its parts joined, lower-cased, spaces as dashes. */
export const earlyKey = (...parts: string[]) => parts.map((p) => p.trim().toLowerCase().replace(/\s+/g, '-')).join(':');

/** Makes the clicks kept before the app started, once; later clicks go straight to the app. */
export function replayEarlyClicks(): void {
  if (typeof window !== 'undefined') window.__shopEarlyClicks?.replay();
}
