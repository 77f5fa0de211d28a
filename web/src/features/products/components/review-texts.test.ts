import { REVIEW_MESSAGES as CONTRACT_MESSAGES, REVIEW_RATING_LABELS as CONTRACT_LABELS } from '@shop/contracts';
import { describe, expect, it } from 'vitest';
import { RATING_OPTIONS, REVIEW_MESSAGES, REVIEW_RATING_LABELS } from './ReviewForm';

describe('review texts', () => {
  it('repeat the contract texts exactly', () => {
    expect(REVIEW_RATING_LABELS).toEqual(CONTRACT_LABELS);
    expect(REVIEW_MESSAGES.required).toBe(CONTRACT_MESSAGES.required);
    expect(REVIEW_MESSAGES.created).toBe(CONTRACT_MESSAGES.created);
    expect(RATING_OPTIONS.map((o) => o.label)).toEqual(['1 Poor', '2 Fair', '3 Good', '4 Very good', '5 Excellent']);
  });
});
