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
