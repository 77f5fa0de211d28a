import fc from 'fast-check';
import { INVALID_DATE_EXAMPLES } from '@shop/contracts';
import { z } from 'zod';

/* Input generators for the route fuzz test: from a route's zod schemas (through JSON Schema) to
 * fast-check arbitraries that mix well-formed values, values of existing rows and hostile ones. */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: Json[];
  const?: Json;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
}

/** The JSON Schema of a zod schema's input, or undefined when there is none (or it is not zod). */
export function jsonSchemaOf(schema: unknown): JsonSchema | undefined {
  if (!(schema instanceof z.ZodType)) return undefined;
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    return {};
  }
}

/** Characters PostgreSQL, parsers and renderers trip on. */
const CONTROL = ['\u0000', '\u0001', '\u0007', '\b', '\t', '\n', '\r', '\u001b', '\u007f', '\u2028', '\uFEFF', '\uD800', '\uDFFF'];

/** Strings meant to break things: NUL and control characters, huge, odd Unicode, injection-shaped, numeric edge cases. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...CONTROL), fc.string({ maxLength: 8 })).map(([a, c, b]) => `${a}${c}${b}`),
  fc.constantFrom(
    '\u0000', '%00', 'a\u0000b', '', ' ', '   ', "' OR 1=1 --", '"; DROP TABLE users; --', '../../etc/passwd', '..%2f..%2f',
    '<script>alert(1)</script>', '${7*7}', '{{7*7}}', '\\', '%', '%zz', '%E0%A4%A', 'NaN', 'Infinity', '-Infinity', '1e309', '-0',
    '9999999999999999999999', '0x10', '1.005', '-1', '0', '00000000000000000000000', 'null', 'undefined', 'true', '[]', '{}',
    '__proto__', 'constructor', 'prototype', '\uD83D\uDE00', 'Ω≈ç√∫', 'ｆｕｌｌ', '\u202Eevil', 'a'.repeat(300),
  ),
  fc.integer({ min: 1_000, max: 200_000 }).map((n) => 'x'.repeat(n)),
  // Dates that are not real calendar dates or lie outside 2000-2100 (contracts/src/dates.ts).
  fc.constantFrom(...INVALID_DATE_EXAMPLES),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);

/** A value nested `depth` levels deep: [[[...]]] or {"a":{"a":...}} (deep JSON). */
export function deepValue(depth: number, kind: 'array' | 'object'): Json {
  let v: Json = 'deep\u0000';
  for (let i = 0; i < depth; i += 1) v = kind === 'array' ? [v] : { a: v };
  return v;
}

/** Values of the wrong type for any field. */
export const wrongType: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(null, true, false, 0, -1, 1.5, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1e308, [], {}, [null], { $gt: '' }, { __proto__x: 1 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 4 }),
  fc.integer({ min: 50, max: 3_000 }).map((d) => deepValue(d, 'array')),
  fc.integer({ min: 50, max: 3_000 }).map((d) => deepValue(d, 'object')),
  fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<Json>,
);

export interface ValuePools {
  /** Ids, slugs, e-mail addresses, tokens of rows that exist: valid-looking references. */
  strings: string[];
}

function stringFor(s: JsonSchema, pools: ValuePools): fc.Arbitrary<string> {
  const options: Array<fc.WeightedArbitrary<string>> = [];
  if (s.enum?.length) options.push({ arbitrary: fc.constantFrom(...s.enum.filter((v): v is string => typeof v === 'string')), weight: 6 });
  if (s.pattern) {
    try {
      options.push({ arbitrary: fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length < 2000), weight: 4 });
    } catch {
      /* a pattern fast-check cannot generate from */
    }
  }
  if (s.format === 'email') options.push({ arbitrary: fc.emailAddress(), weight: 4 });
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 30, 200);
  if (min <= max) {
    options.push({ arbitrary: fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-'), minLength: min, maxLength: max }), weight: 2 });
    options.push({ arbitrary: fc.string({ minLength: min, maxLength: max }), weight: 1 });
    options.push({ arbitrary: fc.constantFrom('1', '2', '10', 'all', 'newest', 'a@example.com', 'password123'), weight: 1 });
  }
  if (pools.strings.length) options.push({ arbitrary: fc.constantFrom(...pools.strings), weight: 3 });
  return fc.oneof(...options);
}

/**
 * A well-formed value for `schema`: the declared type, enums, lengths and ranges, optional
 * properties often left out (so that one mutated field is what the route sees). No hostile values:
 * `mutant` supplies those.
 */
export function cleanValue(schema: JsonSchema | undefined, pools: ValuePools, depth = 0): fc.Arbitrary<Json> {
  const s = schema ?? {};
  if (depth > 4) return fc.oneof(stringFor({}, pools), fc.integer(), fc.constant(null));
  if (s.const !== undefined) return fc.constant(s.const);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((a) => cleanValue(a, pools, depth + 1)));
  if (s.allOf?.length) return cleanValue(s.allOf[0]!, pools, depth + 1);
  if (s.enum?.length) return fc.constantFrom(...s.enum);
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (!types.length) return s.properties ? objectFor(s, pools, depth) : fc.oneof(stringFor({}, pools), fc.integer({ min: 0, max: 100 }), fc.boolean());
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<Json> => {
      switch (type) {
        case 'string':
          return stringFor(s, pools);
        case 'integer':
          return fc.oneof(
            fc.integer({ min: Math.max(s.minimum ?? 0, -(2 ** 31)), max: Math.min(s.maximum ?? 100, 2 ** 31 - 1) }),
            fc.constantFrom(0, 1, -1, 2 ** 31, 2 ** 53),
          );
        case 'number':
          return fc.oneof(
            fc.double({ min: s.minimum ?? 0, max: s.maximum ?? 1000, noNaN: true }),
            fc.constantFrom(0, 0.004, 0.005, 0.01, -0.01, 1, 100, 1e15, 1e308, Number.MIN_VALUE),
          );
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        case 'array':
          return fc.array(cleanValue(s.items ?? {}, pools, depth + 1), { maxLength: Math.min(s.maxItems ?? 3, 30) });
        case 'object':
          return objectFor(s, pools, depth);
        default:
          return fc.constant(null);
      }
    }),
  );
}

function objectFor(s: JsonSchema, pools: ValuePools, depth: number): fc.Arbitrary<Json> {
  const props = s.properties ?? {};
  const required = new Set(s.required ?? []);
  const entries = Object.entries(props).map(([key, schema]) =>
    cleanValue(schema, pools, depth + 1).chain((v) => (required.has(key) ? fc.constant([key, v] as const) : fc.constantFrom([key, v] as const, null, null))),
  );
  return (entries.length ? fc.tuple(...entries) : fc.constant([])).map((pairs) =>
    Object.fromEntries(pairs.filter((p): p is readonly [string, Json] => p !== null)) as Json);
}

/** A clean string with a NUL or another control character put inside it. */
const injected: fc.Arbitrary<string> = fc
  .tuple(fc.string({ unit: fc.constantFrom(...'abcxyz019'), maxLength: 10 }), fc.constantFrom('\u0000', '\u0000', '\u0000', '\u0001', '\n', '\u001b', '\uD800'), fc.nat(10))
  .map(([text, c, at]) => `${text.slice(0, at)}${c}${text.slice(at)}`);

/** What replaces one field of a clean request: NUL injected most often, else hostile strings or a wrong type. */
export const mutant: fc.Arbitrary<Json> = fc.oneof(
  { arbitrary: injected, weight: 4 },
  { arbitrary: hostileString, weight: 3 },
  { arbitrary: wrongType, weight: 2 },
);

/** Fragments put into a URL path as they are (not encoded): broken escapes and traversal. */
export const rawPathSegment: fc.Arbitrary<string> = fc.constantFrom('%00', '%', '%zz', '%E0%A4%A', '..', '%2e%2e', 'a%2Fb', '%C0%80', '%FF', '%u0000', '%0A', ';', ':x');

/** Encodes a URL component even when it holds lone surrogates (which encodeURIComponent refuses). */
export function encodeComponent(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
  }
}
