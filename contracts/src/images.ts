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
