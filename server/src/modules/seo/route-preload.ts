import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseWholeNumber } from '@shop/contracts';
import { SEARCH_ORDERS } from '@shop/contracts/constants';
import type { FastifyRequest } from 'fastify';
import type { HtmlTransform } from '../../lib/context.ts';
import { ACCESS_COOKIE } from '../../lib/auth.ts';
import { escapeHtml } from './html.ts';

/** One chunk of Vite's build manifest (web/dist/.vite/manifest.json, `build.manifest`). */
export interface ViteManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  /** Manifest keys of the chunks this one imports statically. */
  imports?: string[];
}
export type ViteManifest = Record<string, ViteManifestChunk>;

/** Where the build writes its manifest, relative to the web build directory. */
export const VITE_MANIFEST_PATH = '.vite/manifest.json';

/** The build's manifest, or null without one (an older build, or no build at all). */
export function readViteManifest(distDir: string): ViteManifest | null {
  const file = path.join(distDir, VITE_MANIFEST_PATH);
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ViteManifest;
  } catch {
    return null;
  }
}

/** The files of `keys` and every chunk they import statically (depth first, each once). */
function staticClosure(manifest: ViteManifest, keys: string[]): string[] {
  const seen = new Set<string>();
  const files: string[] = [];
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) return;
    files.push(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return files;
}

/**
 * The script files a lazily loaded module needs, in load order, without those of the entry chunk
 * (index.html already loads and modulepreloads them). Empty when the module is not in the manifest.
 */
export function moduleChunkFiles(manifest: ViteManifest, moduleKey: string): string[] {
  const key = manifestKey(manifest, moduleKey);
  if (!key) return [];
  const entries = Object.keys(manifest).filter((k) => manifest[k]!.isEntry);
  const loaded = new Set(staticClosure(manifest, entries));
  return staticClosure(manifest, [key]).filter((file) => !loaded.has(file));
}

/**
 * The manifest key of a lazily imported module: its source path, or, when the bundler merged the
 * module into a chunk that other chunks import too (the key is then the chunk's '_Name-hash.js'),
 * the one dynamic entry chunk named after the module's file.
 */
function manifestKey(manifest: ViteManifest, moduleKey: string): string | undefined {
  if (manifest[moduleKey]) return moduleKey;
  const name = path.posix.basename(moduleKey).replace(/\.[jt]sx?$/, '');
  const named = Object.keys(manifest).filter((k) => manifest[k]!.isDynamicEntry && !manifest[k]!.src && manifest[k]!.name === name);
  return named.length === 1 ? named[0] : undefined;
}

const SEARCH_PAGE = 'src/features/search/pages/SearchPage.tsx';

/** What a storefront path renders: its lazily loaded page module and the API reads it starts with. */
interface RoutePage {
  /** The page's source module as the manifest names it (web/src/app/router.tsx), or null (in the entry). */
  module: string | null;
  /** API paths the page reads as it opens, for anybody. */
  data?: string[];
  /** API paths the page reads as it opens when signed in. */
  signedInData?: string[];
}

const page = (module: string | null, data?: Partial<Pick<RoutePage, 'data' | 'signedInData'>>): RoutePage => ({ module, ...data });
const segment = (value: string): string | null => {
  try {
    return encodeURIComponent(decodeURIComponent(value));
  } catch {
    return null;
  }
};

/**
 * The storefront's routes as web/src/app/router.tsx declares them, with the module each one loads
 * lazily and the API calls its page makes first (the same URLs the app requests, so the browser
 * reuses the preloaded answers). Admin pages and unknown paths are left out: the admin area is
 * two lazy levels deep, and a not-found page needs nothing more than the entry.
 */
export function routePage(pathname: string): RoutePage | null {
  const p = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  const fixed: Record<string, RoutePage> = {
    '/': page(null, { data: ['/api/products'] }),
    // A signed-in shopper's cart page and order review read the server cart as they open (useCart(true)).
    '/cart': page('src/features/cart/pages/CartPage.tsx', { signedInData: ['/api/cart'] }),
    // Its API read depends on the query string (searchApiPath).
    '/search': page(SEARCH_PAGE),
    '/signin': page('src/features/auth/pages/SignInPage.tsx'),
    '/signup': page('src/features/auth/pages/SignUpPage.tsx'),
    '/forgot-password': page('src/features/auth/pages/ForgotPasswordPage.tsx'),
    '/reset-password': page('src/features/auth/pages/ResetPasswordPage.tsx'),
    '/privacy': page('src/features/privacy/pages/PrivacyPage.tsx'),
    '/confirm-signup': page('src/features/auth/pages/ConfirmSignUpPage.tsx'),
    '/confirm-email': page('src/features/users/pages/ConfirmEmailPage.tsx'),
    '/cj-products': page('src/features/cj/pages/CjProductsPublicPage.tsx'),
    '/newsletter/unsubscribe': page('src/features/newsletter/pages/UnsubscribePage.tsx'),
    '/shipping': page('src/features/checkout/pages/ShippingPage.tsx', { signedInData: ['/api/addresses'] }),
    '/payment': page('src/features/checkout/pages/PaymentPage.tsx'),
    '/placeorder': page('src/features/checkout/pages/PlaceOrderPage.tsx', { signedInData: ['/api/cart'] }),
    '/orderhistory': page('src/features/orders/pages/OrderHistoryPage.tsx', { signedInData: ['/api/orders/mine'] }),
    '/profile': page('src/features/users/pages/ProfilePage.tsx'),
  };
  if (Object.hasOwn(fixed, p)) return fixed[p]!;
  const [, first, rest] = /^\/([^/]+)\/([^/]+)$/.exec(p) ?? [];
  const param = rest ? segment(rest) : null;
  if (!param) return null;
  if (first === 'product') return page('src/features/products/pages/ProductPage.tsx', { data: [`/api/products/slug/${param}`] });
  if (first === 'cj-product') return page('src/features/cj/pages/CjProductPage.tsx', { data: [`/api/cj/products/saved/slug/${param}`] });
  if (first === 'order') return page('src/features/orders/pages/OrderPage.tsx', { signedInData: [`/api/orders/${param}`] });
  return null;
}

/**
 * The search page's API read for its URL: the same filters, defaults and parameter order as the
 * web app's parseSearchFilters (features/search/lib/search-filters.ts) and API client (every filter
 * sent, URLSearchParams encoding), so the preloaded answer is the one the page asks for.
 */
export function searchApiPath(search: string): string {
  const params = new URLSearchParams(search);
  const text = (key: string) => params.get(key)?.trim() || 'all';
  const order = params.get('order') ?? '';
  const parsed = parseWholeNumber(params.get('page') ?? '');
  const page = parsed.ok ? parsed.value : 0;
  const filters = {
    query: text('query'),
    category: text('category'),
    price: text('price'),
    rating: text('rating'),
    order: (SEARCH_ORDERS as readonly string[]).includes(order) ? order : 'newest',
    page: String(Number.isInteger(page) && page > 0 ? page : 1),
    tag: text('tag'),
  };
  return `/api/products/search?${new URLSearchParams(filters).toString()}`;
}

/**
 * Every page asks who is signed in as it starts (SessionSync), and the guards of signed-in pages wait
 * for it; not a page rendered for the signed-in visitor, which holds the answer already.
 */
const SESSION_DATA = ['/api/users/current'];

/**
 * `<link rel="preload" as="fetch">` for an API read: `use-credentials` matches the app's
 * `fetch(url, { credentials: 'include' })`, so the browser hands the app this response.
 */
export const fetchPreload = (href: string) => `<link rel="preload" as="fetch" href="${escapeHtml(href)}" crossorigin="use-credentials" />`;
export const modulePreload = (file: string) => `<link rel="modulepreload" fetchpriority="low" crossorigin href="/${escapeHtml(file.replace(/^\//, ''))}" />`;

/** The preload tags for a request: the page's chunks, then the API reads it starts with. */
export function routePreloadTags(
  manifest: ViteManifest | null,
  request: Pick<FastifyRequest, 'url' | 'cookies'> & { serverRendered?: boolean; renderedForViewer?: boolean },
): string[] {
  const pathname = request.url.split(/[?#]/)[0] ?? '/';
  const route = routePage(pathname);
  if (!route) return [];
  const signedIn = Boolean(request.cookies?.[ACCESS_COOKIE]);
  const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')).split('#')[0]! : '';
  // A server-rendered page holds its public data already (lib/ssr.ts): only the session's reads are preloaded.
  const pageData = request.serverRendered ? [] : route.module === SEARCH_PAGE ? [searchApiPath(query)] : (route.data ?? []);
  const data = [...(signedIn && !request.renderedForViewer ? SESSION_DATA : []), ...pageData, ...(signedIn ? (route.signedInData ?? []) : [])];
  const chunks = manifest && route.module ? moduleChunkFiles(manifest, route.module) : [];
  return [...chunks.map(modulePreload), ...data.map(fetchPreload)];
}

/**
 * HTML transform for the storefront pages: the server knows which page a path shows, so it names
 * that page's code (modulepreload, from the build manifest) and its first API reads (preload as
 * fetch) in the HTML. The browser fetches them alongside the entry script instead of one after
 * another once the app has started (entry → session → page chunk → page data).
 */
export function createRoutePreloadTransform(deps: { webDistDir: string }): HtmlTransform {
  let manifest: ViteManifest | null | undefined;
  return async (request, html) => {
    // Read once: a build without a manifest (null) is not looked for again on every page.
    if (manifest === undefined) manifest = readViteManifest(deps.webDistDir);
    const tags = routePreloadTags(manifest, request);
    const headEnd = html.search(/<\/head>/i);
    if (tags.length === 0 || headEnd === -1) return null;
    return `${html.slice(0, headEnd)}${tags.map((t) => `  ${t}\n`).join('')}  ${html.slice(headEnd)}`;
  };
}
