import { SEARCH_PAGE_PARAMS } from '@shop/contracts/constants';

/**
 * The query parameters each public storefront page reads. A page's server rendering and its place
 * in the shared page cache depend on these alone: everything else (`utm_*`, `fbclid`, `gclid`, a
 * cache-buster) is dropped, and the ones kept are put in order, so `/?utm_source=mail` is `/` and
 * `/search?page=2&query=lamp` is `/search?page=2&query=lamp` whatever order they came in. The page
 * reads the first value of a parameter, so only the first is kept.
 *
 * Pages not listed here (the back office, checkout, account pages, anything unknown) keep their URL
 * as it came: they are personal or rare, and their code may read any parameter.
 */
const PAGE_PARAMS: Record<string, readonly string[]> = {
  '/': [],
  '/search': SEARCH_PAGE_PARAMS,
  '/cart': [],
  '/privacy': [],
  '/signin': ['redirect'],
  '/signup': ['redirect'],
  '/forgot-password': [],
  '/reset-password': ['token'],
  '/confirm-signup': ['token'],
  '/confirm-email': ['token'],
  '/newsletter/unsubscribe': ['token'],
  '/cj-products': ['pid'],
};
/** Pages under these prefixes with one more segment (`/product/<slug>`) read no parameter. */
const NO_PARAM_PREFIXES = ['/product/', '/cj-product/', '/pages/'];

function paramsOf(pathname: string): readonly string[] | null {
  if (Object.hasOwn(PAGE_PARAMS, pathname)) return PAGE_PARAMS[pathname]!;
  const prefix = NO_PARAM_PREFIXES.find((p) => pathname.startsWith(p));
  if (prefix && pathname.length > prefix.length && !pathname.slice(prefix.length).includes('/')) return [];
  return null;
}

/**
 * The URL a storefront page is rendered and cached for: its path with the parameters it reads, in
 * order (see PAGE_PARAMS); other URLs as they are.
 */
export function pageUrl(url: string): string {
  const at = url.indexOf('?');
  const pathname = at < 0 ? url : url.slice(0, at);
  const known = paramsOf(pathname);
  if (known === null || at < 0) return url;
  const given = new URLSearchParams(url.slice(at + 1));
  const kept = new URLSearchParams();
  for (const name of [...known].sort()) {
    const value = given.get(name);
    if (value !== null) kept.set(name, value);
  }
  const query = kept.toString();
  return query ? `${pathname}?${query}` : pathname;
}

/** Storefront pages whose markup is the same for everyone: the public catalogue and content pages. */
const SHARED_PAGES = new Set(['/', '/search', '/privacy']);
const SHARED_PREFIXES = NO_PARAM_PREFIXES;

/**
 * Whether the page at `pathname` is one page for everyone (issue 35): the home, search, product,
 * supplier product, information and privacy pages hold no one's name or cart, signed in or not, so
 * they are rendered without the visitor and served from the shared cache to everyone; the header's
 * personal parts come from the browser's session state. Pages personal by nature (cart, checkout,
 * orders, profile, sign-in pages, the back office) are rendered for whoever asks.
 */
export function isSharedPage(pathname: string): boolean {
  if (SHARED_PAGES.has(pathname)) return true;
  const prefix = SHARED_PREFIXES.find((p) => pathname.startsWith(p));
  return Boolean(prefix) && pathname.length > prefix!.length && !pathname.slice(prefix!.length).includes('/');
}
