import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHeartbeatWheel } from './heartbeat-wheel.ts';

describe('heartbeat wheel', () => {
  afterEach(() => { vi.useRealTimers(); });

  it('visits every beat once per period, spreading beats added together over the period', () => {
    vi.useFakeTimers();
    const wheel = createHeartbeatWheel(25_000, 25);
    const visits = new Map<number, number[]>();
    for (let i = 0; i < 100; i++) wheel.add(() => { visits.set(i, [...(visits.get(i) ?? []), Date.now()]); });

    const perTick: number[] = [];
    for (let t = 0; t < 50; t++) {
      const before = [...visits.values()].reduce((n, v) => n + v.length, 0);
      vi.advanceTimersByTime(1000);
      perTick.push([...visits.values()].reduce((n, v) => n + v.length, 0) - before);
    }
    // 100 beats over 25 slots: 4 per one-second tick, never 100 at once.
    expect(perTick.every((n) => n === 4)).toBe(true);
    for (const times of visits.values()) {
      expect(times).toHaveLength(2);
      expect(times[1]! - times[0]!).toBe(25_000);
    }
    wheel.stop();
  });

  it('stops visiting a removed beat, and stop() ends the timer', () => {
    vi.useFakeTimers();
    const wheel = createHeartbeatWheel(1000, 10);
    const kept = vi.fn();
    const removed = vi.fn();
    wheel.add(kept);
    const remove = wheel.add(removed);
    remove();
    vi.advanceTimersByTime(1000);
    expect(kept).toHaveBeenCalledTimes(1);
    expect(removed).not.toHaveBeenCalled();
    wheel.stop();
    vi.advanceTimersByTime(5000);
    expect(kept).toHaveBeenCalledTimes(1);
  });
});
