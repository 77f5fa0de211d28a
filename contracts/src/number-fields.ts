import { z } from 'zod';
import { numberProblemMessage, parseMoney, parseWholeNumber, type NumberMessages, type NumberParse } from './numbers.ts';

/** Zod fields over the one money and whole-number parsers (numbers.ts), for request schemas and forms. */

const numberField = (parse: (v: unknown) => NumberParse, messages: NumberMessages) =>
  z.union([z.number(), z.string()], { error: messages.required ?? messages.format }).transform((v, ctx) => {
    const parsed = parse(v);
    if (parsed.ok) return parsed.value;
    ctx.addIssue({ code: 'custom', message: numberProblemMessage(parsed.problem, messages) });
    return z.NEVER;
  });

/**
 * A money field of a request or form: a JSON number or a decimal string (parseMoney), as a number.
 * Chain `.refine`/`.pipe` for the field's range.
 */
export const moneyField = (messages: NumberMessages) => numberField(parseMoney, messages);

/** A whole-number field: a JSON whole number or a string of digits (parseWholeNumber), as a number. */
export const wholeNumberField = (messages: NumberMessages) => numberField(parseWholeNumber, messages);

/**
 * A whole-number query parameter (always a string in a URL): absent or '' takes `fallback`, else
 * digits only, then `min`..`max`; one message for every way it can be wrong.
 */
export const wholeNumberParam = (opts: { fallback: number; min: number; max: number; message: string }) =>
  z
    .union([z.string(), z.number()], { error: opts.message })
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || (typeof v === 'string' && v.trim() === '')) return opts.fallback;
      const parsed = parseWholeNumber(v);
      if (!parsed.ok || parsed.value < opts.min || parsed.value > opts.max) {
        ctx.addIssue({ code: 'custom', message: opts.message });
        return z.NEVER;
      }
      return parsed.value;
    });
