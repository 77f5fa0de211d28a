/**
 * Absolute URL for a path (on the site's origin, config.siteUrl: PUBLIC_URL, else
 * http://localhost:PORT outside production; never the request's Host) or an already absolute URL.
 */
export function absoluteUrl(origin: string, pathOrUrl: string): string {
  if (/^https?:\/\//i.test(pathOrUrl)) return pathOrUrl;
  return `${origin}${pathOrUrl.startsWith('/') ? '' : '/'}${pathOrUrl}`;
}
