import { describe, expect, it } from 'vitest';
import { sliceColor } from './chart-colors';

describe('sliceColor', () => {
  it('never repeats a colour within 60 slices', () => {
    const colors = Array.from({ length: 60 }, (_, i) => sliceColor(i));
    expect(new Set(colors).size).toBe(60);
    expect(colors[0]).toBe('#0d6efd');
  });
});
