import { describe, expect, it } from 'vitest';
import { onBuildWarning, type BuildWarning } from './build-warnings';

describe('onBuildWarning', () => {
  const passed = (warning: BuildWarning) => {
    const out: BuildWarning[] = [];
    onBuildWarning(warning, (w) => out.push(w));
    return out.length === 1;
  };

  it("drops only Rollup's annotation warning about a dependency's comments", () => {
    expect(passed({ code: 'INVALID_ANNOTATION', id: '/work/shop/node_modules/zod/v4/core/util.js', message: 'A comment ... contains an annotation that Rollup cannot interpret' })).toBe(false);
    expect(passed({ code: 'INVALID_ANNOTATION', id: 'C:\\shop\\node_modules\\zod\\v4\\core\\regexes.js', message: 'A comment' })).toBe(false);
  });

  it('passes on the same warning for the app\'s own code, and every other warning', () => {
    expect(passed({ code: 'INVALID_ANNOTATION', id: '/work/shop/web/src/lib/format.ts', message: 'A comment' })).toBe(true);
    expect(passed({ code: 'INVALID_ANNOTATION', message: 'no file' })).toBe(true);
    expect(passed({ code: 'CIRCULAR_DEPENDENCY', id: '/work/shop/node_modules/x/index.js', message: 'Circular dependency' })).toBe(true);
    expect(passed({ code: 'EVAL', id: '/work/shop/node_modules/x/index.js', message: 'Use of eval is strongly discouraged' })).toBe(true);
    expect(passed({ message: 'a plugin warning' })).toBe(true);
  });
});
