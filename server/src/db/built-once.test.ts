import { describe, expect, it } from 'vitest';
import { builtOnce } from './built-once.ts';

describe('builtOnce', () => {
  it('builds a key once per handle, keeps handles apart, and starts over at the bound', () => {
    let builds = 0;
    const statement = builtOnce<string, { n: number }>(2);
    const a = {};
    const b = {};
    const first = statement(a, 'x', () => ({ n: ++builds }));
    expect(statement(a, 'x', () => ({ n: ++builds }))).toBe(first);
    expect(statement(b, 'x', () => ({ n: ++builds })).n).toBe(2);
    statement(a, 'y', () => ({ n: ++builds }));
    expect(builds).toBe(3);
    // a holds x and y: a third key clears it, so x is built again afterwards.
    statement(a, 'z', () => ({ n: ++builds }));
    expect(statement(a, 'x', () => ({ n: ++builds })).n).toBe(5);
  });
});
