import { lazy, useState, type ComponentType } from 'react';

/** sessionStorage: when the page was last reloaded because a chunk failed to load. */
export const CHUNK_RELOAD_KEY = 'shop:chunk-reload-at';
/** A chunk that fails again within this time of that reload is not reloaded for again. */
export const CHUNK_RELOAD_WINDOW_MS = 30_000;

/** A lazily loaded part of the app could not be loaded (a deploy removed it, the network dropped). */
export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'ChunkLoadError';
  }
}

/**
 * Reloads the page once after a chunk failed to load (a tab from before a deploy gets the new
 * build's index and chunks). Returns false, doing nothing, when it already did so within
 * CHUNK_RELOAD_WINDOW_MS (the reload did not help: the error is shown) or sessionStorage is
 * unavailable.
 */
export function reloadOnceForChunk(now: number = Date.now()): boolean {
  try {
    const last = Number(sessionStorage.getItem(CHUNK_RELOAD_KEY) ?? 0);
    if (now - last < CHUNK_RELOAD_WINDOW_MS) return false;
    sessionStorage.setItem(CHUNK_RELOAD_KEY, String(now));
  } catch {
    return false;
  }
  window.location.reload();
  return true;
}

/**
 * React.lazy for the app's pages and deferred parts, made for deploys and flaky networks: a chunk
 * that fails to load reloads the page once (reloadOnceForChunk); if that does not help, the import
 * fails with a ChunkLoadError for the nearest PageErrorBoundary to show, and its Retry button
 * (retryFailedChunks) makes the part try the import anew (React.lazy alone would keep the failure).
 */
/** Bumped by Retry (retryFailedChunks): failed parts try their import again on their next render. */
let retryEpoch = 0;

/** Makes every part whose chunk failed import it anew when next rendered (the Retry button). */
export function retryFailedChunks(): void {
  retryEpoch += 1;
}

/** A lazily loaded part that can be loaded ahead of its first render (before hydration). */
export type LazyPart<P extends object> = ComponentType<P> & {
  /** Loads the part's chunk; once it has loaded the part renders at once, without suspending. */
  preload: () => Promise<void>;
};

export function lazyPage<P extends object>(factory: () => Promise<{ default: ComponentType<P> }>): LazyPart<P> {
  const state: { failedAt: number; loaded: ComponentType<P> | null } = { failedAt: -1, loaded: null };
  const load = () =>
    factory().then(
      (mod) => {
        state.loaded = mod.default;
        return mod;
      },
      (err: unknown) => {
        if (reloadOnceForChunk()) return new Promise<never>(() => undefined); // the page is going away
        state.failedAt = retryEpoch;
        throw new ChunkLoadError(err);
      },
    );
  let shared = lazy(load);
  function LazyPage(props: P) {
    // Only after a Retry does a failed part import again (a render that simply repeats must not
    // start a new request each time).
    if (state.failedAt >= 0 && state.failedAt < retryEpoch) {
      state.failedAt = -1;
      shared = lazy(load);
    }
    // Loaded ahead (preload, before hydration): rendered directly, so hydration never waits on it.
    // Chosen once per mount: switching between the two would remount the part.
    const [direct] = useState(() => state.loaded);
    const Component = direct ?? shared;
    return <Component {...props} />;
  }
  let preloading: Promise<void> | null = null;
  LazyPage.preload = () => {
    preloading ??= load().then(
      () => undefined,
      () => {
        preloading = null;
      },
    );
    return preloading;
  };
  return LazyPage;
}
