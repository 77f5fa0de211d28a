/** The part of a Rollup warning this filter reads (Rollup's RollupLog). */
export interface BuildWarning {
  code?: string;
  id?: string;
  message: string;
}

/**
 * The build's `onwarn` (vite.config.ts): drops Rollup's INVALID_ANNOTATION warning about a
 * dependency's own comments (zod's source explains its `@__PURE__` annotations in comments that
 * Rollup cannot place, and drops them), which `npm start` printed on every fresh build though
 * nothing in the build is wrong. Only that warning, only for files under node_modules: every
 * other warning, and this one for the app's own code, is passed on.
 */
export function onBuildWarning<W extends BuildWarning>(warning: W, warn: (warning: W) => void): void {
  if (warning.code === 'INVALID_ANNOTATION' && /[\\/]node_modules[\\/]/.test(warning.id ?? '')) return;
  warn(warning);
}
