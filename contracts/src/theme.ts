/**
 * What the first paint needs from the browser's storage. The browser keeps the light/dark choice in
 * localStorage `mode` (JSON) and, for the server's rendering, in the `mode` cookie. FIRST_PAINT_SCRIPT
 * runs in the page's head before anything is painted (the server allows exactly this script by its
 * hash in the Content-Security-Policy): it sets the theme (the stored choice, else the system's
 * `prefers-color-scheme`), and marks `<html data-cookie-consent>` when the cookie notice was accepted
 * (localStorage `cookieConsent`), so that the notice the server renders into every page stays hidden.
 */
export const THEME_COOKIE = 'mode';

export type ThemeMode = 'light' | 'dark';

export const FIRST_PAINT_SCRIPT =
  "(function(){var d=document.documentElement,m,c;try{m=JSON.parse(localStorage.getItem('mode')||'null');c=localStorage.getItem('cookieConsent')}catch(e){}" +
  "if(m!=='dark'&&m!=='light')m=window.matchMedia&&matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light';" +
  "d.setAttribute('data-bs-theme',m);if(c==='true')d.setAttribute('data-cookie-consent','')})()";

/** The theme named by a cookie value, or null for anything else. */
export function parseThemeCookie(value: string | undefined): ThemeMode | null {
  return value === 'dark' || value === 'light' ? value : null;
}
