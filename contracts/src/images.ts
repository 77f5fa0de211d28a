// Kept apart from constants.ts so that the storefront's entry chunk imports just this.

/**
 * Widths of the resized copies served at /uploads/w/{width}/{key} for images in the upload store
 * (never enlarged: an image narrower than the width is served at its own size).
 */
export const IMAGE_VARIANT_WIDTHS = [200, 400, 800] as const;

/**
 * `sizes` of a product card image: its rendered width in the home grid (row-cols-2 row-cols-md-3
 * row-cols-lg-4 g-3) and in the search results (row-cols-2 row-cols-lg-3 g-3 in a col-lg-9), in
 * Bootstrap's container. The server preloads the first card's image with the same value.
 */
export const CARD_IMAGE_SIZES = {
  home: '(min-width: 1400px) 312px, (min-width: 1200px) 267px, (min-width: 768px) 222px, (min-width: 576px) 250px, calc(50vw - 20px)',
  search:
    '(min-width: 1400px) 311px, (min-width: 1200px) 266px, (min-width: 992px) 221px, (min-width: 768px) 340px, (min-width: 576px) 250px, calc(50vw - 20px)',
} as const;

/**
 * `sizes` of a product page's main image: its width in the gallery column (col-md-6 in a .row.g-4,
 * in Bootstrap's container; the full width under 768 px). The server-rendered page preloads it with
 * the same value.
 */
export const PRODUCT_IMAGE_SIZES =
  '(min-width: 1400px) 636px, (min-width: 1200px) 546px, (min-width: 992px) 456px, (min-width: 768px) 336px, (min-width: 576px) 516px, calc(100vw - 24px)';

// Images in the shop's upload store (/uploads/{key}); the server also serves them resized.
const UPLOADED_IMAGE = /^\/uploads\/([a-z0-9][a-z0-9-]*\.webp)$/;

/** The `srcset` of an image from the upload store (its resized copies), or undefined for any other URL. */
export function uploadedImageSrcSet(src: string): string | undefined {
  const key = UPLOADED_IMAGE.exec(src)?.[1];
  if (!key) return undefined;
  return IMAGE_VARIANT_WIDTHS.map((w) => `/uploads/w/${w}/${key} ${w}w`).join(', ');
}

// ---------------------------------------------------------------------------------------------
// Image URLs a product may point at
// ---------------------------------------------------------------------------------------------

/** Where POST /api/upload puts an image: its `secure_url` is `/uploads/{key}`. */
export const UPLOADS_PATH_PREFIX = '/uploads/';
/** The bundled offline supplier catalogue's images (GET /api/cj/offline-images/v1/{file}). */
export const OFFLINE_SUPPLIER_IMAGE_PREFIX = '/api/cj/offline-images/v1/';
/** An upload key as the upload store makes them: lowercase letters, digits and hyphens, then .webp. */
export const UPLOAD_KEY = /^[a-z0-9][a-z0-9-]{0,150}\.webp$/;
const OFFLINE_IMAGE_FILE = /^[a-z0-9][a-z0-9-]{0,100}\.webp$/;
/** http(s), then a host and the rest: printable characters only (no white space, control character or backslash). */
const WEB_URL = /^https?:\/\/(?!\/)[!-[\]-~\u00a1-\uffff]+$/i;
export const IMAGE_URL_MAX_LENGTH = 2000;

/**
 * Whether `url` may be a product's image: one of the shop's own images (an upload at
 * `/uploads/{key}`, or the offline supplier catalogue's `/api/cj/offline-images/v1/{file}`), or an
 * absolute http(s) URL with a host and no user name or password (a supplier's CDN). Anything else
 * is refused: `javascript:`, `data:`, `vbscript:`, `file:`, protocol-relative `//host/...`, and
 * relative paths outside those two folders (`/admin`, `../x`, `/uploads/../x`).
 */
export function isProductImageUrl(url: string): boolean {
  if (url.length === 0 || url.length > IMAGE_URL_MAX_LENGTH) return false;
  if (url.startsWith(UPLOADS_PATH_PREFIX)) return UPLOAD_KEY.test(url.slice(UPLOADS_PATH_PREFIX.length));
  if (url.startsWith(OFFLINE_SUPPLIER_IMAGE_PREFIX)) return OFFLINE_IMAGE_FILE.test(url.slice(OFFLINE_SUPPLIER_IMAGE_PREFIX.length));
  if (!WEB_URL.test(url)) return false;
  // No user name or password (not even an empty one: `https://@host`), which only serve to disguise the host.
  const authority = url.slice(url.indexOf('//') + 2).split(/[/?#]/, 1)[0] ?? '';
  if (authority.includes('@')) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
}

/** The message for an image URL that `isProductImageUrl` refuses, beginning with the field's label. */
export const imageUrlMessage = (label: string) =>
  `${label} must be an uploaded image (${UPLOADS_PATH_PREFIX}…) or a web address starting with https://`;
