import type Sharp from 'sharp';

let loaded: Promise<typeof Sharp> | undefined;

/**
 * sharp (libvips: tens of MB once loaded), imported on first use: most starts process no image. Its
 * operation cache is turned off: every call here works on a different input (an upload, a seed
 * image, one variant made once and kept on disk), so cached results are never reused and would
 * only hold up to 50 MB.
 */
export function loadSharp(): Promise<typeof Sharp> {
  loaded ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  });
  return loaded;
}
