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

/**
 * Clicks before the app has started (issue 36.3). The server's page paints first and its buttons do
 * nothing until React hydrates (the app itself starts only after the first paint, APP_START_SCRIPT).
 * This script, in the head before anything is painted (allowed by its hash like the others), keeps
 * a click on a control marked `data-early="<key>"` (Add to Cart, a variant, the cart's quantity
 * buttons, the theme switch): the click does nothing yet (its default is prevented and no other
 * listener sees it), the control is marked `data-early-pending` and `aria-busy`, and the click is
 * kept once per key (an impatient second click on the same control is not a second order). When the
 * app is live it calls `window.__shopEarlyClicks.replay()` (web/src/lib/early-clicks.ts): every kept
 * click is made again on the same element (or, should hydration have replaced it, the element with
 * the same key), in the order they came, and from then on clicks go straight through.
 * A form of the app (one without an `action`: sign in, sign up, addresses, ...) submitted before the
 * app is live is held the same way and submitted again once it is (`requestSubmit`, the values typed
 * are in its fields): without this the browser's own submission sent it as a GET to the page's own
 * address, the password in the URL. A form with an `action` (the header search) is a real form and
 * goes to the server.
 */
export const EARLY_CLICK_SCRIPT =
  "(function(){var w=window,d=document,q=[],f=[],r=0;" +
  "function keep(e){if(r)return;var t=e.target,el=t&&t.closest?t.closest('[data-early]'):null;if(!el)return;" +
  "e.preventDefault();e.stopImmediatePropagation();var k=el.getAttribute('data-early');" +
  "for(var i=0;i<q.length;i++)if(q[i].k===k)return;" +
  "q.push({k:k,el:el});el.setAttribute('data-early-pending','');el.setAttribute('aria-busy','true')}" +
  "function hold(e){if(r)return;var t=e.target;if(!t||t.tagName!=='FORM'||t.hasAttribute('action'))return;" +
  "e.preventDefault();e.stopImmediatePropagation();if(f.indexOf(t)<0){f.push(t);t.setAttribute('aria-busy','true')}}" +
  "w.addEventListener('click',keep,true);w.addEventListener('submit',hold,true);" +
  "w.__shopEarlyClicks={kept:function(){return q.map(function(x){return x.k})},replay:function(){if(r)return;r=1;w.removeEventListener('click',keep,true);w.removeEventListener('submit',hold,true);" +
  "var l=q;q=[];for(var i=0;i<l.length;i++){var x=l[i],el=x.el;el.removeAttribute('data-early-pending');el.removeAttribute('aria-busy');" +
  "if(!el.isConnected){el=null;var all=d.querySelectorAll('[data-early]');for(var j=0;j<all.length;j++)if(all[j].getAttribute('data-early')===x.k){el=all[j];break}}" +
  "if(el&&!el.disabled)el.click()}" +
  "var g=f;f=[];for(var n=0;n<g.length;n++){g[n].removeAttribute('aria-busy');if(g[n].isConnected&&g[n].requestSubmit)g[n].requestSubmit()}}}})()";
