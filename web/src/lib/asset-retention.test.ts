import { describe, expect, it } from 'vitest';
import { envCount, planAssetRetention, type AssetBuild } from './asset-retention';

const DAY = 86_400_000;
const now = Date.UTC(2026, 10, 26);
const build = (id: string, daysAgo: number, files: string[]): AssetBuild => ({ id, builtAt: now - daysAgo * DAY, files });

describe('planAssetRetention', () => {
  const current = build('new', 0, ['assets/index-N.js', 'assets/shared-S.js']);

  it('keeps the files of the previous builds (up to keepBuilds, newest first) beside the new ones', () => {
    const history = [build('b3', 1, ['assets/index-3.js', 'assets/shared-S.js']), build('b2', 2, ['assets/index-2.js']), build('b1', 3, ['assets/index-1.js'])];
    const existing = ['assets/index-3.js', 'assets/index-2.js', 'assets/index-1.js', 'assets/shared-S.js'];
    const plan = planAssetRetention({ history, current, existing, keepBuilds: 2, keepDays: 14, now });
    expect(plan.restore).toEqual(['assets/index-2.js', 'assets/index-3.js']);
    expect(plan.drop).toEqual(['assets/index-1.js']);
    expect(plan.history.map((b) => b.id)).toEqual(['new', 'b3', 'b2']);
  });

  it('drops builds older than keepDays even within keepBuilds; keepBuilds 0 keeps none', () => {
    const history = [build('recent', 2, ['assets/a.js']), build('old', 20, ['assets/b.js'])];
    const existing = ['assets/a.js', 'assets/b.js'];
    expect(planAssetRetention({ history, current, existing, keepBuilds: 3, keepDays: 14, now })).toMatchObject({ restore: ['assets/a.js'], drop: ['assets/b.js'] });
    expect(planAssetRetention({ history, current, existing, keepBuilds: 0, keepDays: 14, now })).toMatchObject({ restore: [], drop: ['assets/a.js', 'assets/b.js'] });
  });

  it('files found without a history count as one recent build; files gone from disk are not restored', () => {
    const plan = planAssetRetention({ history: [build('b1', 1, ['assets/gone.js', 'assets/here.js'])], current, existing: ['assets/here.js', 'assets/stray.js'], keepBuilds: 1, keepDays: 14, now });
    expect(plan.restore).toEqual(['assets/stray.js']);
    expect(plan.drop).toEqual(['assets/here.js']);
    const two = planAssetRetention({ history: [build('b1', 1, ['assets/gone.js', 'assets/here.js'])], current, existing: ['assets/here.js', 'assets/stray.js'], keepBuilds: 2, keepDays: 14, now });
    expect(two.restore).toEqual(['assets/here.js', 'assets/stray.js']);
    expect(two.history[2]).toMatchObject({ id: 'b1', files: ['assets/here.js'] });
  });

  it('three deploys in a row: a tab of each of the last keepBuilds builds finds its files', () => {
    let history: AssetBuild[] = [];
    let disk: string[] = [];
    for (let i = 1; i <= 5; i += 1) {
      const cur = build(`b${i}`, 5 - i, [`assets/index-${i}.js`]);
      const plan = planAssetRetention({ history, current: cur, existing: disk, keepBuilds: 3, keepDays: 14, now });
      disk = [...cur.files, ...plan.restore];
      history = plan.history;
    }
    expect(disk.sort()).toEqual(['assets/index-2.js', 'assets/index-3.js', 'assets/index-4.js', 'assets/index-5.js']);
  });

  it('reads counts from the environment, falling back on bad values', () => {
    expect(envCount('5', 3)).toBe(5);
    expect(envCount('0', 3)).toBe(0);
    expect(envCount(undefined, 3)).toBe(3);
    expect(envCount('', 3)).toBe(3);
    expect(envCount('-1', 3)).toBe(3);
    expect(envCount('two', 3)).toBe(3);
  });
});
