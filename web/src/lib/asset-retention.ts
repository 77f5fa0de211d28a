/**
 * Which hashed assets a new web build keeps beside its own (vite.config.ts, keepPreviousAssets): a
 * tab opened before a deploy still asks for the chunks of the build it started with, so the
 * assets of the previous WEB_ASSET_KEEP_BUILDS builds stay, as long as they are not older than
 * WEB_ASSET_KEEP_DAYS. Pure: the plugin reads and writes the files and the history.
 */
export interface AssetBuild {
  /** A name for the build (its time as ISO text; 'before-history' for files found without one). */
  id: string;
  builtAt: number;
  /** Paths relative to the output directory: assets/x-hash.js. */
  files: string[];
}

export interface RetentionPlan {
  /** The history to store: the current build first, then the previous builds kept. */
  history: AssetBuild[];
  /** Files of previous builds to put back beside the new ones. */
  restore: string[];
  /** Files of previous builds that are dropped. */
  drop: string[];
}

export const DEFAULT_KEEP_BUILDS = 3;
export const DEFAULT_KEEP_DAYS = 14;
const DAY_MS = 86_400_000;

export function planAssetRetention(opts: {
  history: AssetBuild[];
  current: AssetBuild;
  /** Asset files the output directory held before this build. */
  existing: string[];
  keepBuilds: number;
  keepDays: number;
  now: number;
}): RetentionPlan {
  const known = new Set(opts.history.flatMap((b) => b.files));
  const existing = new Set(opts.existing);
  // Files from before the history was kept: one build, as recent as can be assumed.
  const orphans = opts.existing.filter((f) => !known.has(f));
  const previous = [
    ...(orphans.length ? [{ id: 'before-history', builtAt: opts.now, files: orphans }] : []),
    ...opts.history,
  ]
    .filter((b) => b.id !== opts.current.id)
    .sort((a, b) => b.builtAt - a.builtAt);
  const kept: AssetBuild[] = [];
  for (const b of previous) {
    if (kept.length >= Math.max(0, opts.keepBuilds)) break;
    if (opts.now - b.builtAt > opts.keepDays * DAY_MS) continue;
    // Only what is still on disk can be kept.
    const files = b.files.filter((f) => existing.has(f));
    if (files.length) kept.push({ ...b, files });
  }
  const current = new Set(opts.current.files);
  const restore = [...new Set(kept.flatMap((b) => b.files))].filter((f) => !current.has(f)).sort();
  const restoreSet = new Set(restore);
  const drop = opts.existing.filter((f) => !current.has(f) && !restoreSet.has(f)).sort();
  return { history: [opts.current, ...kept], restore, drop };
}

/** A positive whole number from the environment, or the default. */
export function envCount(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isInteger(n) && n >= 0 ? n : fallback;
}
