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

/**
 * A server-rendered page starts the app after its first contentful paint. The web build loads the
 * entry script as `<link rel="modulepreload" data-app-entry>` (fetched and compiled at once, not run)
 * followed by APP_START_SCRIPT (allowed by its hash like FIRST_PAINT_SCRIPT), which imports it once the
 * document is parsed and the browser has reported the page's first contentful paint: the page shows
 * before the app's code runs, however soon that code arrives. (A `<script type="module">` that is
 * already loaded runs before the first paint, so on a fast link and a slow phone the server's page
 * stayed blank while React started.) Without server-rendered content (the plain shell sent when rendering fails),
 * in a hidden tab, or without paint timing, it starts at once; if no paint is reported within a
 * second, it starts anyway. It starts once, and marks the moment (`performance.mark('app-start')`).
 */
export const APP_START_SCRIPT =
  "(function(){var d=document,w=window,l=d.querySelector('link[data-app-entry]'),s=0;if(!l)return;" +
  "function go(){if(!s){s=1;performance.mark('app-start');import(l.href)}}" +
  "function later(){var r=d.getElementById('root'),P=w.PerformanceObserver;" +
  "if(d.visibilityState==='hidden'||!r||!r.firstChild||!P||(P.supportedEntryTypes||[]).indexOf('paint')<0)return go();" +
  "new P(function(list,o){if(list.getEntriesByName('first-contentful-paint').length){o.disconnect();setTimeout(go,0)}}).observe({type:'paint',buffered:true});" +
  'setTimeout(go,1000)}' +
  "if(d.readyState==='loading')d.addEventListener('DOMContentLoaded',later);else later()})()";
