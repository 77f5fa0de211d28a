/**
 * The storefront's light/dark theme on the first paint. The browser keeps the choice in localStorage
 * `mode` (JSON) and, for the server's rendering, in the `mode` cookie. THEME_SCRIPT runs in the page's
 * head before anything is painted (the server allows exactly this script by its hash in the
 * Content-Security-Policy): the stored choice, else the system's `prefers-color-scheme`.
 */
export const THEME_COOKIE = 'mode';

export type ThemeMode = 'light' | 'dark';

export const THEME_SCRIPT =
  "(function(){var m;try{m=JSON.parse(localStorage.getItem('mode')||'null')}catch(e){}" +
  "if(m!=='dark'&&m!=='light')m=window.matchMedia&&matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light';" +
  "document.documentElement.setAttribute('data-bs-theme',m)})()";

/** The theme named by a cookie value, or null for anything else. */
export function parseThemeCookie(value: string | undefined): ThemeMode | null {
  return value === 'dark' || value === 'light' ? value : null;
}
