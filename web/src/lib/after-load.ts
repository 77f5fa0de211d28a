/** How long after the load event work the first view does not need waits (then for an idle moment). */
export const SETTLE_DELAY_MS = 2_000;
/** A page whose load event has not come by then (an image that never finishes, say) counts as loaded. */
export const MAX_LOAD_WAIT_MS = 10_000;

type IdleWindow = Window & {
  requestIdleCallback?: (cb: () => void, opts?: { timeout: number }) => number;
  cancelIdleCallback?: (id: number) => void;
};

/**
 * Runs `task` once the page has loaded (or MAX_LOAD_WAIT_MS have passed without its load event),
 * `delayMs` later, in an idle moment of the browser: work the first view does not need (the chat's
 * socket, the toast container, the code of a dialog that may open an hour later) waits until the
 * page the visitor opened has settled, instead of competing with it for a slow phone's CPU and
 * network while it starts. Returns a function that cancels it.
 */
export function whenPageSettled(task: () => void, delayMs = SETTLE_DELAY_MS): () => void {
  const w = window as IdleWindow;
  let timer: number | undefined;
  let loadTimer: number | undefined;
  let idleId: number | undefined;
  let cancelled = false;
  let loaded = false;
  const afterLoad = () => {
    if (loaded || cancelled) return;
    loaded = true;
    window.removeEventListener('load', afterLoad);
    window.clearTimeout(loadTimer);
    timer = window.setTimeout(() => {
      if (cancelled) return;
      if (w.requestIdleCallback) idleId = w.requestIdleCallback(task, { timeout: 2_000 });
      else task();
    }, delayMs);
  };
  if (document.readyState === 'complete') afterLoad();
  else {
    window.addEventListener('load', afterLoad, { once: true });
    loadTimer = window.setTimeout(afterLoad, MAX_LOAD_WAIT_MS);
  }
  return () => {
    cancelled = true;
    window.removeEventListener('load', afterLoad);
    window.clearTimeout(loadTimer);
    window.clearTimeout(timer);
    if (idleId !== undefined) w.cancelIdleCallback?.(idleId);
  };
}
