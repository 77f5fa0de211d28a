import { describe, expect, it } from 'vitest';
import { RATING_OPTIONS } from './ReviewForm';

describe('review texts', () => {
  it('label the rating options with the contract words', () => {
    expect(RATING_OPTIONS.map((o) => o.label)).toEqual(['1 Poor', '2 Fair', '3 Good', '4 Very good', '5 Excellent']);
  });
});
