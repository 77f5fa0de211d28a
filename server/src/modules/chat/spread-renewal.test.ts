import { afterEach, describe, expect, it } from 'vitest';
import { createSpreadRenewal, type SpreadRenewal } from './spread-renewal.ts';

describe('leases renewed a few at a time', () => {
  let renewal: SpreadRenewal<number> | null = null;
  afterEach(() => renewal?.close());

  it('5,000 keys written at once: each renewed every period at most, none older than 1.5 periods, ≤ 2× the steady rate a tick', () => {
    let clock = 0;
    const period = 20_000;
    const tick = 250;
    const last = new Map<number, number>();
    const gaps: number[] = [];
    const batches: number[] = [];
    renewal = createSpreadRenewal<number>({
      periodMs: period, tickMs: tick, now: () => clock,
      renew: (keys) => {
        batches.push(keys.length);
        for (const k of keys) { gaps.push(clock - last.get(k)!); last.set(k, clock); }
      },
    });
    for (let k = 0; k < 5000; k += 1) { renewal.written(k); last.set(k, 0); }
    // Nothing is due before the period.
    for (; clock < period; clock += tick) expect(renewal.renewDue()).toEqual([]);
    for (; clock <= 5 * period; clock += tick) renewal.renewDue();

    // 5,000 × 250 / 20,000 = 62.5 a tick at the steady rate: never more than twice that.
    expect(Math.max(...batches)).toBeLessThanOrEqual(125);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(period);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(1.5 * period);
    for (let k = 0; k < 5000; k += 1) expect(clock - last.get(k)!).toBeLessThanOrEqual(1.5 * period);
  });

  it('a key written meanwhile is not renewed early; a deleted one is not renewed', () => {
    let clock = 0;
    const renewed: number[] = [];
    renewal = createSpreadRenewal<number>({ periodMs: 1000, tickMs: 100, now: () => clock, renew: (keys) => renewed.push(...keys) });
    renewal.written(1);
    renewal.written(2);
    renewal.written(3);
    clock = 600;
    renewal.written(2); // written for another reason (an administrator's activity)
    renewal.delete(3); // its socket closed
    clock = 1000;
    expect(renewal.renewDue()).toEqual([1]);
    clock = 1600;
    expect(renewal.renewDue()).toEqual([2]);
    clock = 2000;
    expect(renewal.renewDue()).toEqual([1]);
    expect(renewed).toEqual([1, 2, 1]);
  });
});
