import { uploadedImageSrcSet } from '@shop/contracts/images';

/**
 * `srcSet` listing the resized copies (/uploads/w/{width}/{key}) of an image from the upload store,
 * so the browser fetches one fitting the slot given by `sizes`; nothing for other URLs (absolute
 * supplier images), which keep their `src` alone.
 */
export function responsiveImage(src: string, sizes: string): { srcSet?: string; sizes?: string } {
  const srcSet = uploadedImageSrcSet(src);
  return srcSet ? { srcSet, sizes } : {};
}
