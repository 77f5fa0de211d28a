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
