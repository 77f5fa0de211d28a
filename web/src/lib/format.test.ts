import { describe, expect, it } from 'vitest';
import { formatClockTime, formatCount, formatDateTime, formatLongDate, formatMoney, formatPrice, formatShortDate, roundMoney } from './format';

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

describe('formatting without Intl agrees with Intl (en-US)', () => {
  // The formatters are plain string work (no locale data to load at start-up); Intl is the oracle here.
  const money = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: true });
  const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0, roundingMode: 'halfExpand' } as Intl.NumberFormatOptions);
  const dates = new Intl.DateTimeFormat('en-US', { month: 'long', day: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: true });
  let seed = 20261127;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const samples = [0, 0.004, 0.005, 0.995, 1, 9.99, 999.995, 1000, 1234.5, 99999.99, 100000, 999999.999, 1e9 + 0.01, -0.5, -1234.5, -1e6];
  for (let i = 0; i < 500; i++) samples.push(Math.round((random() - 0.3) * 10 ** Math.floor(random() * 10) * 1000) / 1000);

  it('money: the same digits, separators and cents as Intl for every sample', () => {
    for (const v of samples) {
      const r = roundMoney(v);
      expect(formatMoney(v), String(v)).toBe(`${r < 0 ? '-' : ''}$${money.format(Math.abs(r))}`);
    }
  });

  it('counts: grouped, halves away from zero, as Intl', () => {
    for (const v of [...samples, 12345, 2.5, -2.5, 0.4, -0.4]) expect(formatCount(v), String(v)).toBe(count.format(v).replace(/^-0$/, '0'));
    expect(formatCount(12345)).toBe('12,345');
    expect(formatCount(-0.4)).toBe('0');
  });

  it("long dates: 'MMMM d, yyyy' as toLocaleDateString gives it", () => {
    for (let month = 0; month < 12; month++) {
      const d = new Date(2026, month, month * 2 + 1, 23, 59);
      expect(formatLongDate(d)).toBe(d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' }));
    }
    expect(formatLongDate('garbage')).toBe('');
  });

  it('non-finite values do not throw', () => {
    expect(formatMoney(Number.NaN)).toBe('$NaN');
    expect(formatCount(Number.POSITIVE_INFINITY)).toBe('Infinity');
  });

  it("dates: the same 'MMMM dd, yyyy hh:mm a' as Intl's parts in local time, every month and hour", () => {
    for (let month = 0; month < 12; month++) {
      for (const hour of [0, 1, 11, 12, 13, 23]) {
        const d = new Date(2025, month, (month * 3) % 28 + 1, hour, (month * 7) % 60);
        const part: Record<string, string> = {};
        for (const p of dates.formatToParts(d)) part[p.type] = p.value;
        const h = part.hour === '00' || part.hour === '24' ? '12' : part.hour;
        expect(formatDateTime(d)).toBe(`${part.month} ${part.day}, ${part.year} ${h}:${part.minute} ${part.dayPeriod?.toUpperCase()}`);
      }
    }
  });
});
