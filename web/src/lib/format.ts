/** Rounds to cents the way the server does (half away from zero), avoiding binary drift (1.005 -> 1.01). */
export function roundMoney(value: number): number {
  return Math.sign(value) * Math.round((Math.abs(value) + Number.EPSILON) * 100) / 100;
}

/** Money with 2 decimals, no currency sign: 12.5 -> '12.50'. */
export function formatPrice(value: number): string {
  return roundMoney(value).toFixed(2);
}

const money = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: true });

/** USD with a dollar sign, thousands separators and 2 decimals: 3750.18 -> '$3,750.18', -5 -> '-$5.00'. The one money format of the UI. */
export function formatMoney(value: number): string {
  const rounded = roundMoney(value);
  return `${rounded < 0 ? '-' : ''}$${money.format(Math.abs(rounded))}`;
}

const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** A whole number with thousands separators: 12345 -> '12,345'. */
export function formatCount(value: number): string {
  return count.format(value);
}

const dateParts = new Intl.DateTimeFormat('en-US', {
  month: 'long',
  day: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: true,
});

/** The spec's order date format 'MMMM dd, yyyy hh:mm a' in local time: 'January 05, 2025 03:04 PM'. */
export function formatDateTime(value: string | number | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const part: Record<string, string> = {};
  for (const p of dateParts.formatToParts(date)) part[p.type] = p.value;
  // Some engines print midnight as '24' in 12-hour mode; the spec's 'hh' is 01-12.
  const hour = part.hour === '00' || part.hour === '24' ? '12' : (part.hour ?? '');
  return `${part.month} ${part.day}, ${part.year} ${hour}:${part.minute} ${(part.dayPeriod ?? '').toUpperCase()}`;
}

/** The first 10 characters of an ISO timestamp (yyyy-mm-dd), as the order tables show it. */
export function formatShortDate(value: string | null | undefined): string {
  return value ? value.substring(0, 10) : '';
}

/** Local clock time 'hh:mm AM/PM' (12 h, as the order dates), as in 'Pay within 30 minutes — until 02:35 PM'. */
export function formatClockTime(value: string | number | Date): string {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  const hour = d.getHours() % 12 === 0 ? 12 : d.getHours() % 12;
  return `${String(hour).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')} ${d.getHours() < 12 ? 'AM' : 'PM'}`;
}
