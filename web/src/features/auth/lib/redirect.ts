import { useSearchParams } from 'react-router';

/**
 * The ?redirect target of the auth screens, kept inside the shop: only same-site paths
 * ("/shipping", "/product/x?y=1") are accepted; anything else falls back to "/".
 */
export function safeRedirect(value: string | null | undefined, fallback = '/'): string {
  if (!value) return fallback;
  const path = value.startsWith('/') ? value : `/${value}`;
  const hasControlChars = [...path].some((ch) => ch.charCodeAt(0) < 0x20);
  if (path.startsWith('//') || path.startsWith('/\\') || hasControlChars) return fallback;
  return path;
}

/** The page's ?redirect target, made safe (default "/"). */
export function useRedirectParam(): string {
  const [searchParams] = useSearchParams();
  return safeRedirect(searchParams.get('redirect'));
}

/** `path` (an auth screen) carrying the ?redirect target along, unless it is "/": withRedirect(paths.signin, "/shipping"). */
export function withRedirect(path: string, redirect: string): string {
  return redirect === '/' ? path : `${path}?redirect=${encodeURIComponent(redirect)}`;
}

/** The notice on /signin when the page asked for is in the back office. */
export const ADMIN_NEEDED = 'An administrator account is needed to open that page. Please sign in as an administrator.';
export const ADMIN_NEEDED_SIGNED_IN = 'An administrator account is needed to open that page. You are signed in as a customer: sign in with an administrator account to continue.';

/** Pages only an administrator may open: the back office (/admin/...) and the supplier edit form /cj-products. */
const ADMIN_ONLY_PAGES = ['/admin', '/cj-products'];

/**
 * True for pages behind the admin guard. /signin keeps a signed-in customer on the sign-in form for
 * these (to switch accounts) instead of sending them back to a page that would send them here again.
 */
export function isAdminPath(path: string): boolean {
  return ADMIN_ONLY_PAGES.some((page) => path === page || path.startsWith(`${page}/`) || path.startsWith(`${page}?`));
}
