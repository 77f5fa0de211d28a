import { describe, expect, it } from 'vitest';
import { formatClockTime, formatDateTime, formatMoney, formatPrice, formatShortDate, roundMoney } from './format';

describe('money', () => {
  it('shows 2 decimals', () => {
    expect(formatPrice(12.5)).toBe('12.50');
    expect(formatPrice(0)).toBe('0.00');
    expect(formatPrice(7)).toBe('7.00');
    expect(formatMoney(1234.5)).toBe('$1,234.50');
    expect(formatMoney(3750.18)).toBe('$3,750.18');
    expect(formatMoney(1234567.891)).toBe('$1,234,567.89');
    expect(formatMoney(-5)).toBe('-$5.00');
    expect(formatMoney(0)).toBe('$0.00');
  });

  it('rounds to cents without binary drift', () => {
    expect(roundMoney(1.005)).toBe(1.01);
    expect(roundMoney(0.1 + 0.2)).toBe(0.3);
    expect(formatMoney(19.999)).toBe('$20.00');
  });
});

describe('dates', () => {
  it("formats 'MMMM dd, yyyy hh:mm a' in local time", () => {
    expect(formatDateTime(new Date(2025, 0, 5, 15, 4))).toBe('January 05, 2025 03:04 PM');
    expect(formatDateTime(new Date(2024, 11, 31, 9, 30))).toBe('December 31, 2024 09:30 AM');
  });

  it('shows midnight and noon as 12', () => {
    expect(formatDateTime(new Date(2025, 5, 1, 0, 0))).toBe('June 01, 2025 12:00 AM');
    expect(formatDateTime(new Date(2025, 5, 1, 12, 7))).toBe('June 01, 2025 12:07 PM');
  });

  it('accepts ISO strings and rejects garbage', () => {
    const iso = new Date(2025, 2, 9, 18, 45).toISOString();
    expect(formatDateTime(iso)).toBe('March 09, 2025 06:45 PM');
    expect(formatDateTime('not a date')).toBe('');
  });

  it('short date is the first 10 characters', () => {
    expect(formatShortDate('2025-03-09T18:45:00.000Z')).toBe('2025-03-09');
    expect(formatShortDate(null)).toBe('');
  });
});

describe('formatClockTime', () => {
  it('is 12-hour with AM/PM, like the order dates', () => {
    expect(formatClockTime(new Date(2026, 0, 5, 15, 16))).toBe('03:16 PM');
    expect(formatClockTime(new Date(2026, 0, 5, 0, 5))).toBe('12:05 AM');
    expect(formatClockTime(new Date(2026, 0, 5, 12, 0))).toBe('12:00 PM');
    expect(formatClockTime('not a date')).toBe('');
  });
});
