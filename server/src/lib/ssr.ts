import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseThemeCookie, THEME_COOKIE, type ThemeMode } from '@shop/contracts/theme';
import type { Cart, User } from '@shop/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ACCESS_COOKIE } from './auth.ts';

/** What the web app's server entry (web/src/entry-server.tsx, built into `<web dist>-ssr/`) exports. */
interface SsrEntry {
  SSR_DATA_ID: string;
  render(request: {
    url: string;
    mode: ThemeMode;
    fetch: (url: string, init: RequestInit) => Promise<Response>;
    timeoutMs: number;
    viewer: Viewer | null;
    sessionCookie: boolean;
  }): Promise<{ status: number; appHtml: string; headHtml: string; data: string }>;
}

/** The signed-in visitor a page is rendered for: their header (name, menus) and cart badge are in it. */
export interface Viewer {
  user: User;
  /** Their server cart; null when it could not be read (the browser then loads it, as before). */
  cart: Cart | null;
}

/** A page rendered on the server, ready to go into index.html. */
export interface RenderedPage {
  status: number;
  mode: ThemeMode;
  appHtml: string;
  /** Resource hints for the head (React's preloads of the page's first images). */
  headHtml: string;
  /** The `<script type="application/json">` element with the page's data (dehydrated queries, theme). */
  dataScript: string;
  /** Rendered for a signed-in visitor whose session the server checked: who they are is in the page's data. */
  forViewer: boolean;
}

export interface PageRenderer {
  /**
   * `fresh`: the page's data is read past the catalogue micro-cache (the visitor asked for no-cache).
   * `url`: the page to render, when not request.url (lib/page-url.ts: without the parameters it does not read).
   * `shared`: rendered for no one (a page the same for everyone, lib/page-url.ts isSharedPage): the
   * visitor is not read, and the page says only whether the request carried a session cookie.
   */
  render(request: FastifyRequest, fresh?: boolean, url?: string, shared?: boolean): Promise<RenderedPage>;
}

/** Where the server-rendering bundle of a web build lives: beside it, `<distDir>-ssr/entry-server.js`. */
export const ssrEntryFile = (distDir: string) => `${distDir.replace(/[\\/]+$/, '')}-ssr/entry-server.js`;

/** The theme to render: the visitor's `mode` cookie, light without one (index.html's theme script corrects it before the first paint). */
export function themeOf(request: FastifyRequest): ThemeMode {
  return parseThemeCookie(request.cookies[THEME_COOKIE]) ?? 'light';
}

/**
 * Whether the request carries nothing but the theme cookie: its page may come from (and go into) the
 * shared micro-cache. Any other cookie (a session, a guest chat, anything) keeps the page private.
 */
export function isAnonymous(request: FastifyRequest): boolean {
  return Object.keys(request.cookies).every((name) => name === THEME_COOKIE);
}

/** Whether the request carries an access cookie (valid or not): someone may be signed in. */
export function hasSessionCookie(request: FastifyRequest): boolean {
  return Boolean(request.cookies[ACCESS_COOKIE]);
}

/**
 * Loads the web app's server-rendering bundle, or returns null (logged) when the build has none or it
 * cannot be loaded: the storefront is then served as the client-rendered shell, as before.
 *
 * The page's API reads go to this server's own routes in-process (`app.inject`: no socket, no HTTP
 * loopback), GET only and without the visitor's cookies, so the page's content only ever holds public
 * data; the catalogue reads come from their micro-cache like anyone's. A visitor with a valid session
 * (access cookie) gets their name and cart in the header: those two reads alone carry their cookie,
 * and such a page is never shared (spa.ts caches only requests without cookies).
 */
export async function loadPageRenderer(app: FastifyInstance, distDir: string, timeoutMs: number): Promise<PageRenderer | null> {
  if (timeoutMs <= 0) return null;
  const file = ssrEntryFile(distDir);
  if (!existsSync(file)) {
    app.log.warn({ file }, 'no server-rendering bundle; storefront pages are rendered in the browser only');
    return null;
  }
  let entry: SsrEntry;
  try {
    entry = (await import(pathToFileURL(file).href)) as SsrEntry;
  } catch (err) {
    app.log.error({ err, file }, 'server-rendering bundle failed to load; storefront pages are rendered in the browser only');
    return null;
  }
  /** The page's API reads; a page asked for fresh (`Cache-Control: no-cache`, a hard reload) reads fresh data too. */
  const fetcher = (fresh: boolean) => async (url: string, init: RequestInit): Promise<Response> => {
    const method = init.method ?? 'GET';
    if (method !== 'GET' || !url.startsWith('/api/')) throw new Error(`server rendering reads public GET /api routes only, not ${method} ${url}`);
    const res = await app.inject({ method: 'GET', url, headers: { accept: 'application/json', ...(fresh ? { 'cache-control': 'no-cache' } : {}) } });
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'retry-after']) {
      const value = res.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    return injectedResponse(res.statusCode, res.statusCode === 204 || res.statusCode === 304 ? '' : res.payload, headers);
  };
  /** One of the signed-in visitor's own reads, with their access cookie alone; null unless it answers 200. */
  const readAs = async <T,>(accessToken: string, url: string): Promise<T | null> => {
    const res = await app.inject({ method: 'GET', url, cookies: { [ACCESS_COOKIE]: accessToken }, headers: { accept: 'application/json' } });
    return res.statusCode === 200 ? (res.json() as T) : null;
  };
  /**
   * The signed-in visitor of a request with an access cookie: who they are (users/current, which checks
   * the token and the session) and their cart, read with that cookie only. Null without a valid
   * session: the page is rendered anonymous, and the browser restores the session as before.
   */
  const viewerOf = async (request: FastifyRequest): Promise<Viewer | null> => {
    const token = request.cookies[ACCESS_COOKIE];
    if (!token) return null;
    const user = await readAs<User | null>(token, '/api/users/current');
    if (!user) return null;
    return { user, cart: await readAs<Cart>(token, '/api/cart') };
  };
  return {
    async render(request, fresh = false, url = request.url, shared = false) {
      const mode = themeOf(request);
      // The deadline covers the data reads too (a stalled database), not only React's rendering.
      let forViewer = false;
      const rendering = (shared ? Promise.resolve(null) : viewerOf(request)).then((viewer) => {
        forViewer = viewer !== null;
        return entry.render({ url, mode, fetch: fetcher(fresh), timeoutMs, viewer, sessionCookie: Boolean(request.cookies[ACCESS_COOKIE]) });
      });
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`server rendering took longer than ${timeoutMs} ms`)), timeoutMs);
      });
      rendering.catch(() => undefined); // a late failure after the deadline is not an unhandled rejection
      const page = await Promise.race([rendering, deadline]).finally(() => clearTimeout(timer));
      return {
        status: page.status,
        mode,
        appHtml: page.appHtml,
        headHtml: page.headHtml,
        dataScript: `<script type="application/json" id="${entry.SSR_DATA_ID}">${page.data}</script>`,
        forViewer,
      };
    },
  };
}

/**
 * The answer of an in-process read as the part of a WHATWG `Response` the web app's API client uses
 * (status, ok, statusText, headers, text, json, clone). A real `Response` builds a web stream for its
 * body and reads it back chunk by chunk: about a tenth of a millisecond of CPU per read, for a body
 * that is already a string here.
 */
export function injectedResponse(status: number, body: string, headers: Record<string, string>): Response {
  const response = {
    status,
    ok: status >= 200 && status < 300,
    statusText: '',
    headers: new Headers(headers),
    text: () => Promise.resolve(body),
    json: () => Promise.resolve().then(() => JSON.parse(body) as unknown),
    clone: () => response,
  };
  return response as unknown as Response;
}

/**
 * index.html with the rendered page in its root element, its data after it, its resource hints at the
 * end of the head and the rendered theme on `<html>`; null when the template has no empty root element.
 */
export function fillTemplate(html: string, page: RenderedPage): string | null {
  const root = '<div id="root"></div>';
  const at = html.indexOf(root);
  const headEnd = html.search(/<\/head>/i);
  if (at === -1 || headEnd === -1 || headEnd > at) return null;
  // The theme goes on <html>, which is in the head part: set there, before the page is joined to it
  // (a replace over the whole page would copy the page once more).
  const head = html.slice(0, headEnd).replace(/<html\b[^>]*>/i, (tag) =>
    /\sdata-bs-theme=/.test(tag) ? tag.replace(/\sdata-bs-theme="[^"]*"/, ` data-bs-theme="${page.mode}"`) : tag.replace(/>$/, ` data-bs-theme="${page.mode}">`));
  return `${head}${page.headHtml}${html.slice(headEnd, at)}` +
    `<div id="root">${page.appHtml}</div>${page.dataScript}${html.slice(at + root.length)}`;
}
