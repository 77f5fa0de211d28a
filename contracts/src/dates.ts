import { z } from 'zod';

/** Dates the API accepts lie in these years (inclusive): anything else is a typing slip, answered 400. */
export const MIN_DATE_YEAR = 2000;
export const MAX_DATE_YEAR = 2100;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Whether year-month-day names a day of the Gregorian calendar (2026-02-31 does not). */
export function isCalendarDay(year: number, month: number, day: number): boolean {
  return Number.isInteger(year) && month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month);
}

type Parsed = { year: number; ok: boolean } | null;

function parseDay(v: string): Parsed {
  const m = DAY.exec(v);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return { year, ok: isCalendarDay(year, month, day) };
}

function parseDateTime(v: string): Parsed {
  const m = DATE_TIME.exec(v);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [number, number, number, number, number, number];
  const offsetOk = m[7] === undefined || (Number(m[7]) <= 14 && Number(m[8]) < 60);
  return { year, ok: isCalendarDay(year, month, day) && hour < 24 && minute < 60 && second < 60 && offsetOk };
}

export interface DateMessages {
  /** The value is not written as the schema expects. */
  format: string;
  /** Written right, but no such day (or time). */
  real: string;
  /** Outside MIN_DATE_YEAR..MAX_DATE_YEAR. */
  range: string;
}

const defaults = (label: string, written: string): DateMessages => ({
  format: `${label} must be a date written ${written}`,
  real: `${label} must be a real calendar date`,
  range: `${label} must be between ${MIN_DATE_YEAR} and ${MAX_DATE_YEAR}`,
});

function dateString(parse: (v: string) => Parsed, messages: DateMessages, allowEmpty = false) {
  return z.string({ error: messages.format }).superRefine((v, ctx) => {
    if (allowEmpty && v === '') return;
    const parsed = parse(v);
    if (!parsed) ctx.addIssue({ code: 'custom', message: messages.format });
    else if (!parsed.ok) ctx.addIssue({ code: 'custom', message: messages.real });
    else if (parsed.year < MIN_DATE_YEAR || parsed.year > MAX_DATE_YEAR) ctx.addIssue({ code: 'custom', message: messages.range });
  });
}

/**
 * A calendar day, `YYYY-MM-DD`: a day that exists (not 2026-02-31), in MIN_DATE_YEAR..MAX_DATE_YEAR.
 * Every day-valued field of the API uses it (or `apiDate` when a time may follow).
 */
export function calendarDay(label = 'Date', messages: Partial<DateMessages> = {}) {
  return dateString(parseDay, { ...defaults(label, 'YYYY-MM-DD'), ...messages });
}

/**
 * A calendar day `YYYY-MM-DD` or an ISO 8601 date-time with its offset (`2026-05-01T09:30:00Z`,
 * `...+02:00`): a real day and time, in MIN_DATE_YEAR..MAX_DATE_YEAR.
 */
export function apiDate(label = 'Date', messages: Partial<DateMessages> = {}, opts: { allowEmpty?: boolean } = {}) {
  return dateString((v) => parseDay(v) ?? parseDateTime(v), { ...defaults(label, 'YYYY-MM-DD or as an ISO 8601 date-time'), ...messages }, opts.allowEmpty);
}

/** Edge values every date field must refuse (the property tests send them to every date field). */
export const INVALID_DATE_EXAMPLES: readonly string[] = [
  '99999-01-01', '2026-02-31', '2026-02-29', '2026-13-01', '2026-00-10', '2026-04-31', '1999-12-31', '2101-01-01',
  '0000-01-01', '2026-1-1', '2026-01-01T24:00:00Z', '2026-01-01T12:60:00Z', '', ' 2026-01-01', 'not a date',
];
/** Edge values every date field must accept. */
export const VALID_DATE_EXAMPLES: readonly string[] = ['2000-01-01', '2100-12-31', '2024-02-29', '2026-12-31'];
