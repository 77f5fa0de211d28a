/*
 * Plain functions, no zod, so any chunk may import them ('@shop/contracts/numbers'); the zod fields
 * built on them are in number-fields.ts.
 *
 * Numbers that people type and clients send: the ONE money parser and the ONE whole-number parser
 * of the shop, used by every request schema that takes a price, an amount, a quantity, a stock
 * count, a percent or a page number, and by the web forms that check the same fields.
 *
 * JavaScript's Number() reads far more than decimals: "0x10" is 16, "0b11" 3, "0o7" 7, "1e1" 10,
 * "Infinity" is a number and " 12 " is 12. None of that is how anyone writes a price, so a string
 * must be plain decimal notation:
 *
 *   money          digits, an optional point, at most 2 decimals: "19", "19.9", "19.99", "19.", ".5"
 *   whole number   digits only: "0", "12", "007"
 *
 * either with an optional leading minus, so that "-5" meets the field's own range rule and message
 * ('Price must be greater than 0', 'Quantity must be at least 1') like the JSON number -5 does: no
 * field of the shop takes a negative value. No plus sign, no exponent, no hexadecimal/binary/octal
 * prefix, no thousands separator, no "Infinity"/"NaN". White space around the value (a form
 * field's stray space) is trimmed on purpose; inside it is refused. A JSON number is already a number: it must be finite, a whole
 * number where one is asked, and a money amount must be whole cents (at most 2 decimals, allowing
 * binary floating point's last-digit noise: 0.1 + 0.2 is 0.30). Ranges (at least $0.01, at most
 * 100) are each field's own rule, checked after parsing with that field's message.
 */

/** Why a value is not a number of the kind asked. */
export type NumberProblem = 'empty' | 'format' | 'decimals';
export type NumberParse = { ok: true; value: number } | { ok: false; problem: NumberProblem };

const MONEY_TEXT = /^-?(?:\d+(?:\.(\d*))?|\.(\d+))$/;
const WHOLE_TEXT = /^-?\d+$/;
/** A JSON number counts as whole cents when it is this close to them (binary floating point's error). */
const centsTolerance = (cents: number) => Math.max(1e-6, Math.abs(cents) * 1e-12);
/** Money keeps cents; more decimals are refused rather than rounded away. */
export const MONEY_DECIMALS = 2;

const fail = (problem: NumberProblem): NumberParse => ({ ok: false, problem });

/** A money amount in decimal notation (see above), as a number of whole cents / 100. */
export function parseMoney(input: unknown): NumberParse {
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return fail('format');
    const cents = input * 100;
    if (Math.abs(cents - Math.round(cents)) > centsTolerance(cents)) return fail('decimals');
    return { ok: true, value: Math.round(cents) / 100 };
  }
  if (typeof input !== 'string') return fail('format');
  const text = input.trim();
  if (text === '') return fail('empty');
  const m = MONEY_TEXT.exec(text);
  if (!m) return fail('format');
  const decimals = m[1] ?? m[2] ?? '';
  if (decimals.length > MONEY_DECIMALS) return fail('decimals');
  const value = Number(text) + 0; // + 0: "-0" is 0
  return Number.isFinite(value) ? { ok: true, value } : fail('format');
}

/** A whole number in decimal notation (digits, maybe after a minus), or a JSON number that is whole. */
export function parseWholeNumber(input: unknown): NumberParse {
  if (typeof input === 'number') return Number.isInteger(input) ? { ok: true, value: input } : fail('format');
  if (typeof input !== 'string') return fail('format');
  const text = input.trim();
  if (text === '') return fail('empty');
  if (!WHOLE_TEXT.test(text)) return fail('format');
  const value = Number(text) + 0;
  return Number.isFinite(value) ? { ok: true, value } : fail('format');
}

/** The messages of a number field, each beginning with its label ("Price must be ..."). */
export interface NumberMessages {
  /** The value is missing, '' or of another type (default: `format`). */
  required?: string;
  format: string;
  /** Money only: more than 2 decimals. */
  decimals?: string;
}

/** "Price must be a number written like 19.99", "Price must have at most 2 decimal places". */
export const moneyMessages = (label: string): Required<NumberMessages> => ({
  required: `${label} is required`,
  format: `${label} must be a number written like 19.99`,
  decimals: `${label} must have at most ${MONEY_DECIMALS} decimal places`,
});

/** "Count in stock must be a whole number written like 12". */
export const wholeNumberMessages = (label: string, example = '12'): Required<Omit<NumberMessages, 'decimals'>> => ({
  required: `${label} is required`,
  format: `${label} must be a whole number written like ${example}`,
});

/** The message for a failed parse. */
export function numberProblemMessage(problem: NumberProblem, messages: NumberMessages): string {
  if (problem === 'empty') return messages.required ?? messages.format;
  if (problem === 'decimals') return messages.decimals ?? messages.format;
  return messages.format;
}
