/** Rounds to cents the way the server does (half away from zero), avoiding binary drift (1.005 -> 1.01). */
export function roundMoney(value: number): number {
  return Math.sign(value) * Math.round((Math.abs(value) + Number.EPSILON) * 100) / 100;
}

/** Money with 2 decimals, no currency sign: 12.5 -> '12.50'. */
export function formatPrice(value: number): string {
  return roundMoney(value).toFixed(2);
}

/**
 * en-US digit grouping of a run of digits: '3750' -> '3,750'. Plain string work rather than
 * Intl.NumberFormat: the first Intl formatter a page builds loads the browser's locale data, about
 * 20 ms of a throttled phone's start-up (Lighthouse's 4x CPU) spent before anything is drawn, and
 * the server renders every price too. The shop's one locale needs no more than this.
 */
function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(?:\d{3})+$)/g, ',');
}

/** USD with a dollar sign, thousands separators and 2 decimals: 3750.18 -> '$3,750.18', -5 -> '-$5.00'. The one money format of the UI. */
export function formatMoney(value: number): string {
  const rounded = roundMoney(value);
  if (!Number.isFinite(rounded)) return `$${rounded}`;
  const [whole = '0', cents = '00'] = Math.abs(rounded).toFixed(2).split('.');
  return `${rounded < 0 ? '-' : ''}$${groupThousands(whole)}.${cents}`;
}

/** A whole number with thousands separators, halves rounded away from zero: 12345 -> '12,345'. */
export function formatCount(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const whole = Math.round(Math.abs(value));
  return `${value < 0 && whole !== 0 ? '-' : ''}${groupThousands(String(whole))}`;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const pad2 = (n: number) => String(n).padStart(2, '0');

/** The date a value names, or null for one that names none ('not a date'). */
function validDate(value: string | number | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The spec's order date format 'MMMM dd, yyyy hh:mm a' in local time: 'January 05, 2025 03:04 PM'. */
export function formatDateTime(value: string | number | Date): string {
  const date = validDate(value);
  return date ? `${MONTHS[date.getMonth()]} ${pad2(date.getDate())}, ${date.getFullYear()} ${clockTime(date)}` : '';
}

/** A calendar day as 'MMMM d, yyyy' in local time: 'November 7, 2026'. */
export function formatLongDate(value: string | number | Date): string {
  const date = validDate(value);
  return date ? `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}` : '';
}

/** The first 10 characters of an ISO timestamp (yyyy-mm-dd), as the order tables show it. */
export function formatShortDate(value: string | null | undefined): string {
  return value ? value.substring(0, 10) : '';
}

/** Local clock time 'hh:mm AM/PM' (12 h, as the order dates), as in 'Pay within 30 minutes — until 02:35 PM'. */
export function formatClockTime(value: string | number | Date): string {
  const date = validDate(value);
  return date ? clockTime(date) : '';
}

function clockTime(d: Date): string {
  const hour = d.getHours() % 12 === 0 ? 12 : d.getHours() % 12;
  return `${pad2(hour)}:${pad2(d.getMinutes())} ${d.getHours() < 12 ? 'AM' : 'PM'}`;
}
