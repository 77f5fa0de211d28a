import {
  addCartItemBodySchema, cjSaveBodySchema, imageUrlMessage, isProductImageUrl, listOrdersQuerySchema, moneyMessages, parseMoney, parseWholeNumber,
  pricingRuleSchema, PRODUCT_FORM_MESSAGES as M, productFormSchema, productSearchQuerySchema, productUpdateBodySchema, updateLeadBodySchema,
  wholeNumberMessages,
} from '@shop/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/*
 * The one money parser and the one whole-number parser (contracts/src/numbers.ts) and the product
 * image rule (contracts/src/images.ts), which every request schema and the web forms use.
 */

/** What JavaScript's Number() reads but no one writes as a price or a count. */
const NOT_DECIMAL = [
  '0x10', '0X10', '0b11', ' 0b11 ', '0o7', '1e1', '1E1', '1e-2', '.1e1', '+1', '−1', '--1', '-', '-.', '- 1', '1-', 'Infinity', '-Infinity', 'NaN', '1_000', '1,5', '1 000',
  '12.5.1', '.', '..5', '1..', '٣', '１２', '0x', 'abc', '12abc', '\u00a012\u00a0x', '1\u0000', '\t0x1\n',
];

describe('parseMoney', () => {
  it('reads decimal notation with at most 2 decimals (a minus sign included, for the range rules to answer), trimming white space around it', () => {
    const cases: Array<[string | number, number]> = [
      ['19.99', 19.99], ['19', 19], ['19.9', 19.9], ['19.', 19], ['.5', 0.5], ['0.01', 0.01], ['007.50', 7.5], ['0', 0], ['  12.30\t', 12.3],
      [19.99, 19.99], [0.1 + 0.2, 0.3], [1e6, 1_000_000], [-5, -5], [0, 0], ['-5', -5], ['-0', 0], ['-.5', -0.5],
    ];
    for (const [input, value] of cases) expect(parseMoney(input), JSON.stringify(input)).toEqual({ ok: true, value });
  });

  it.each(NOT_DECIMAL)('refuses %j (not decimal notation)', (text) => {
    expect(parseMoney(text)).toEqual({ ok: false, problem: 'format' });
  });

  it('refuses more than 2 decimals, as text or as a JSON number, instead of rounding them away', () => {
    for (const input of ['19.999', '0.004', '0.005', '1.000', 19.999, 0.004, 0.005, 12.345]) {
      expect(parseMoney(input), String(input)).toEqual({ ok: false, problem: 'decimals' });
    }
  });

  it('tells empty from malformed, and refuses what is not a number or a string', () => {
    expect(parseMoney('')).toEqual({ ok: false, problem: 'empty' });
    expect(parseMoney('   ')).toEqual({ ok: false, problem: 'empty' });
    for (const v of [null, undefined, true, [], {}, [5], Number.NaN, Number.POSITIVE_INFINITY]) expect(parseMoney(v)).toMatchObject({ ok: false, problem: 'format' });
  });

  it('property: every amount of whole cents written as decimals reads back as itself, as text and as a number', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 100_000_000_000 }), fc.constantFrom(0, 1, 2), (cents, places) => {
      // Written with as few decimals as it needs, or more (19 as "19", "19.0" or "19.00").
      const needed = cents % 100 === 0 ? 0 : cents % 10 === 0 ? 1 : 2;
      const text = (cents / 100).toFixed(Math.max(places, needed));
      expect(parseMoney(text)).toEqual({ ok: true, value: Number(text) });
      expect(parseMoney(cents / 100)).toEqual({ ok: true, value: cents / 100 });
    }));
  });

  it('property: a string accepted is exactly digits, at most one point and at most 2 decimals (what Number() alone would let in is refused)', () => {
    const chars = fc.constantFrom(...'0123456789.+-eExXbBoO_ ,'.split(''));
    fc.assert(fc.property(fc.array(chars, { maxLength: 12 }).map((a) => a.join('')), (text) => {
      const parsed = parseMoney(text);
      const decimal = /^-?(?:\d+(?:\.\d{0,2})?|\.\d{1,2})$/.test(text.trim());
      expect(parsed.ok).toBe(decimal);
      if (parsed.ok) expect(parsed.value).toBe(Number(text.trim()) + 0);
    }), { numRuns: 2000 });
  });
});

describe('parseWholeNumber', () => {
  it('reads digits only (and JSON whole numbers)', () => {
    for (const [input, value] of [['12', 12], ['0', 0], ['007', 7], [' 5 ', 5], ['-3', -3], ['-0', 0], [12, 12], [0, 0], [-3, -3]] as const) {
      expect(parseWholeNumber(input)).toEqual({ ok: true, value });
    }
  });

  it.each([...NOT_DECIMAL, '1.0', '1.', '.0', '2.5'])('refuses %j', (text) => {
    expect(parseWholeNumber(text)).toEqual({ ok: false, problem: 'format' });
  });

  it('refuses fractions, non-finite numbers and other types; empty is its own problem', () => {
    for (const v of [1.5, Number.NaN, Number.POSITIVE_INFINITY, null, true, ['1']]) expect(parseWholeNumber(v)).toMatchObject({ ok: false, problem: 'format' });
    expect(parseWholeNumber('')).toEqual({ ok: false, problem: 'empty' });
  });

  it('property: a string is accepted exactly when it is digits (after an optional minus)', () => {
    fc.assert(fc.property(fc.string({ maxLength: 10 }), (text) => {
      expect(parseWholeNumber(text).ok).toBe(/^-?\d+$/.test(text.trim()));
    }), { numRuns: 2000 });
    fc.assert(fc.property(fc.nat(), (n) => {
      expect(parseWholeNumber(String(n))).toEqual({ ok: true, value: n });
    }));
  });
});

describe('isProductImageUrl', () => {
  it('accepts the upload store\'s paths, the offline supplier catalogue\'s images and http(s) addresses', () => {
    for (const url of [
      '/uploads/0193f0aa1b2c3d4e5f60718293a4b5c6.webp', '/uploads/seed-aurora-desk-lamp-2.webp', '/api/cj/offline-images/v1/p12-c1.webp',
      'https://cdn.example.com/lamp.jpg', 'http://img.example.org/a/b.png?w=400#x', 'HTTPS://CDN.EXAMPLE.COM/X.JPG', 'https://example.com:8443/p.webp',
      'https://bücher.example/ü.jpg',
    ]) expect(isProductImageUrl(url), url).toBe(true);
  });

  it('refuses script and data URLs, other schemes, protocol-relative and other paths of the shop', () => {
    for (const url of [
      'javascript:alert(1)', 'JavaScript:alert(1)', ' javascript:alert(1)', 'java\tscript:alert(1)', 'data:image/svg+xml;base64,PHN2Zz4=', 'DATA:text/html,<script>',
      'vbscript:msgbox(1)', 'file:///etc/passwd', 'ftp://example.com/a.jpg', 'blob:https://example.com/1', '//evil.example/x.jpg', '\\\\evil.example\\x.jpg',
      'https:\\\\evil.example', 'https:/evil.example/x.jpg', 'https://', 'https:///x.jpg', 'https://user:pass@evil.example/x.jpg', 'https://@evil.example/x.jpg',
      'https://evil.example/a b.jpg', 'https://evil.example/\nx', '/favicon.svg', '/images/p1.jpg', '/admin', 'uploads/a.webp', './uploads/a.webp', '../uploads/a.webp',
      '/uploads/../admin', '/uploads/a.png', '/uploads/A.webp', '/uploads/w/400/a.webp', '/uploads/', '/api/cj/offline-images/v1/../../users', '/api/users',
      '', ' ', `https://example.com/${'a'.repeat(2000)}.jpg`,
    ]) expect(isProductImageUrl(url), JSON.stringify(url)).toBe(false);
  });
});

describe('the schemas use them', () => {
  const valid = {
    name: 'Lamp', slug: 'lamp', price: '19.99', image: '/uploads/lamp.webp', images: ['https://cdn.example.com/l.jpg'], category: 'Home', brand: 'Lumo',
    countInStock: '12', description: 'A lamp', isOnSale: true, saleDiscount: '15',
  };
  const fieldErrors = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
    // The first message per field, as the server's 400 and the form show it.
    Object.fromEntries((result.error?.issues ?? []).reverse().map((i) => [String(i.path[0]), i.message]));

  it('the product form reads the text of its inputs with the same parsers', () => {
    expect(productFormSchema.parse(valid)).toMatchObject({ price: 19.99, countInStock: 12, saleDiscount: 15, images: ['https://cdn.example.com/l.jpg'] });
    expect(fieldErrors(productFormSchema.safeParse({ ...valid, price: '0x10', countInStock: ' 0b11 ', saleDiscount: '1e1' }))).toEqual({
      price: M.priceFormat, countInStock: M.countInStockFormat, saleDiscount: M.saleDiscountFormat,
    });
    expect(fieldErrors(productFormSchema.safeParse({ ...valid, price: '19.999' }))).toEqual({ price: M.priceDecimals });
    expect(fieldErrors(productFormSchema.safeParse({ ...valid, price: '', countInStock: '' }))).toEqual({ price: M.price, countInStock: M.countInStock });
    expect(fieldErrors(productFormSchema.safeParse({ ...valid, isOnSale: false, price: '-1', countInStock: '-1' }))).toEqual({ price: M.price, countInStock: M.countInStock });
    expect(fieldErrors(productFormSchema.safeParse({ ...valid, price: '+1', countInStock: '+1' }))).toEqual({ price: M.priceFormat, countInStock: M.countInStockFormat });
    expect(fieldErrors(productFormSchema.safeParse({ ...valid, image: 'javascript:alert(1)', images: ['data:image/png;base64,AAAA'] }))).toEqual({
      image: M.imageUrl, images: M.imagesUrl,
    });
    expect(fieldErrors(productFormSchema.safeParse({ ...valid, image: '' }))).toEqual({ image: M.image });
  });

  it('the messages in constants.ts are the parsers\' own wording', () => {
    expect(moneyMessages('Price')).toMatchObject({ format: M.priceFormat, decimals: M.priceDecimals });
    expect(wholeNumberMessages('Count in stock').format).toBe(M.countInStockFormat);
    expect(wholeNumberMessages('Sale discount', '15').format).toBe(M.saleDiscountFormat);
    expect(imageUrlMessage('Image')).toBe(M.imageUrl);
  });

  it('request bodies and queries refuse what is not decimal, naming the field', () => {
    expect(fieldErrors(productUpdateBodySchema.safeParse({ _id: 'x', price: '0x10', countInStock: '1e1' }))).toEqual({ price: M.priceFormat, countInStock: M.countInStockFormat });
    expect(productUpdateBodySchema.parse({ _id: 'x', price: ' 16 ', countInStock: '3', saleDiscount: 10 })).toMatchObject({ price: 16, countInStock: 3, saleDiscount: 10 });
    expect(fieldErrors(cjSaveBodySchema.safeParse({ pid: 'p', price: '1e1', variants: [{ vid: 'v', price: '0x1' }] }))).toEqual({
      price: M.priceFormat, variants: 'Variant price must be a number written like 19.99',
    });
    expect(fieldErrors(addCartItemBodySchema.safeParse({ productId: 'p', quantity: '0x2' }))).toEqual({ quantity: 'Quantity must be a whole number' });
    expect(addCartItemBodySchema.parse({ productId: 'p', quantity: '2' }).quantity).toBe(2);
    expect(fieldErrors(pricingRuleSchema.safeParse({ markupPercent: '0x32', fixedAmount: '1e1', rounding: '.99' }))).toEqual({
      markupPercent: 'Markup must be a number written like 19.99', fixedAmount: 'Fixed amount must be a number written like 19.99',
    });
    expect(fieldErrors(updateLeadBodySchema.safeParse({ status: 'converted', revenueAmount: '0x10' }))).toEqual({ revenueAmount: 'Revenue amount must be a number written like 19.99' });
    expect(productSearchQuerySchema.safeParse({ page: '0x2' }).success).toBe(false);
    expect(productSearchQuerySchema.parse({ page: '2' }).page).toBe(2);
    expect(fieldErrors(listOrdersQuerySchema.safeParse({ page: '1e1', pageSize: '0x10' }))).toEqual({ page: 'Page must be a whole number', pageSize: 'Page size must be a whole number' });
    expect(listOrdersQuerySchema.parse({ page: '3' })).toMatchObject({ page: 3, pageSize: 20 });
  });
});
