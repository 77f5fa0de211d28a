import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_LOAD_WAIT_MS, SETTLE_DELAY_MS, whenPageSettled } from './after-load';

describe('whenPageSettled', () => {
  let readyState: DocumentReadyState;
  beforeEach(() => {
    vi.useFakeTimers();
    readyState = 'complete';
    vi.spyOn(document, 'readyState', 'get').mockImplementation(() => readyState);
    // The idle callback as a browser runs it: soon, in a later task.
    vi.stubGlobal('requestIdleCallback', (cb: () => void) => window.setTimeout(cb, 50));
    vi.stubGlobal('cancelIdleCallback', (id: number) => window.clearTimeout(id));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('runs the task SETTLE_DELAY_MS after a page that has loaded, in an idle moment, once', () => {
    const task = vi.fn();
    whenPageSettled(task);
    vi.advanceTimersByTime(SETTLE_DELAY_MS - 1);
    expect(task).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1 + 50);
    expect(task).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(60_000);
    expect(task).toHaveBeenCalledTimes(1);
  });

  it('waits for the load event of a page still loading, then the delay', () => {
    readyState = 'interactive';
    const task = vi.fn();
    whenPageSettled(task, 1000);
    vi.advanceTimersByTime(10_000);
    expect(task).not.toHaveBeenCalled();
    window.dispatchEvent(new Event('load'));
    vi.advanceTimersByTime(999);
    expect(task).not.toHaveBeenCalled();
    vi.advanceTimersByTime(51);
    expect(task).toHaveBeenCalledTimes(1);
  });

  it('does not wait for ever for a load event that does not come (a request that never ends)', () => {
    readyState = 'interactive';
    const task = vi.fn();
    whenPageSettled(task, 1000);
    vi.advanceTimersByTime(MAX_LOAD_WAIT_MS + 999);
    expect(task).not.toHaveBeenCalled();
    vi.advanceTimersByTime(51);
    expect(task).toHaveBeenCalledTimes(1);
    // The load event coming late does not run it again.
    window.dispatchEvent(new Event('load'));
    vi.advanceTimersByTime(60_000);
    expect(task).toHaveBeenCalledTimes(1);
  });

  it('never runs a task cancelled before the load, during the delay or while waiting for the idle moment', () => {
    readyState = 'loading';
    const beforeLoad = vi.fn();
    whenPageSettled(beforeLoad)();
    window.dispatchEvent(new Event('load'));
    readyState = 'complete';
    const duringDelay = vi.fn();
    const cancelDuringDelay = whenPageSettled(duringDelay);
    vi.advanceTimersByTime(SETTLE_DELAY_MS / 2);
    cancelDuringDelay();
    const whileIdle = vi.fn();
    const cancelWhileIdle = whenPageSettled(whileIdle, 0);
    vi.advanceTimersByTime(10);
    cancelWhileIdle();
    vi.advanceTimersByTime(60_000);
    expect(beforeLoad).not.toHaveBeenCalled();
    expect(duringDelay).not.toHaveBeenCalled();
    expect(whileIdle).not.toHaveBeenCalled();
  });

  it('without requestIdleCallback, runs the task right after the delay', () => {
    vi.stubGlobal('requestIdleCallback', undefined);
    const task = vi.fn();
    whenPageSettled(task, 100);
    vi.advanceTimersByTime(100);
    expect(task).toHaveBeenCalledTimes(1);
  });
});
