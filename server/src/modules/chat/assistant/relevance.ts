import { searchTerms } from './shop-tools.ts';
import type { ProductFact } from './shop-tools.ts';

/** The plain answer to a question outside the shop (issue 19): never a guessed product. */
export const OUT_OF_SCOPE = 'I can help with our products, your orders, shipping, returns and payment.';

/**
 * A message shaped like a shopping question ("do you sell…", "how much is…", "looking for…"): when
 * nothing in the catalogue matches, the assistant says it found no such product instead of the
 * scope sentence.
 */
export const SHOPPING_INTENT = /\b(do you (have|sell|carry|stock|offer)|have you got|sell|selling|buy|purchase|in stock|out of stock|how much (is|are|does|do|for)|price of|cost of|prices?|looking for|shopping for|i need an?|i want an?|i'?m after|gifts?|present for|any products?)\b/i;

/**
 * Words of a shopping question that name no product but belong to the shop's talk: gifts and who
 * they are for, prices and sizes, colours. They neither count for nor against a product.
 */
export const SHOP_WORDS = new Set((
  'anything something everything options option ideas idea gift gifts present presents deal deals new need want suggest suggestion birthday ' +
  'christmas mum mom dad mother father son daughter wife husband partner friend kid kids child children boy girl baby men women mens womens ' +
  'under below over less dollars dollar usd bucks budget cheaper size small medium large big xl colour color ' +
  'red blue green black white grey gray pink yellow brown orange purple'
).split(' '));

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Levenshtein distance, stopped early once it exceeds `max`. */
export function editDistanceWithin(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j += 1) {
      const v = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      row.push(v);
      if (v < best) best = v;
    }
    if (best > max) return false;
    prev = row;
  }
  return prev[b.length]! <= max;
}

/**
 * Whether a typed term names a catalogue word: the same word, a plural or other ending of it
 * ("bears" / "bear", "headphone" / "headphones"), or a typo of it with the same first letter (one
 * edit from 5 letters, two from 8). Terms shorter than 3 letters never match, 3-letter terms only
 * exactly or as a plural.
 */
export function termNames(term: string, word: string): boolean {
  if (term.length < 3 || word.length < 3) return false;
  if (term === word) return true;
  if (term.length < 4 || word.length < 4) return word === `${term}s` || term === `${word}s`;
  const [short, long] = term.length <= word.length ? [term, word] : [word, term];
  if (long.startsWith(short) && long.length - short.length <= 3) return true;
  // A typo keeps the first letter ("weather" is not "leather", "tonight" not "night") and is short.
  if (short.length < 5 || term[0] !== word[0]) return false;
  return editDistanceWithin(term, word, short.length >= 8 ? 2 : 1);
}

/** The catalogue words that name a product: its name and category (typos and endings allowed). */
const namingWords = (p: ProductFact) => words(`${p.name} ${p.category}`);
/** Whether a term names the product: a name or category word, or its brand's own word as typed ("roots" is not "root"). */
const namesProduct = (t: string, p: ProductFact) => namingWords(p).some((w) => termNames(t, w)) || (t.length >= 3 && words(p.brand).includes(t));

/**
 * Whether a product the shop's search returned is really what the message is about. The search is
 * generous (descriptions, typo tolerance, single words as a fallback), so "capital of France" or
 * "good morning in Spanish" can reach a product through one word. The assistant shows a product
 * when
 * - the message is a shopping question ("do you sell…", "how much is…", "I need a…") and one of its
 *   words names the product (a word of its name or category, typos allowed, or its brand exactly)
 *   or, from 4 letters, stands in its description; or
 * - at least half of the message's words (beyond stopwords and shop talk) name the product.
 */
export function isRelevant(message: string, p: ProductFact): boolean {
  const terms = searchTerms(message);
  if (!terms.length) return false;
  const named = terms.filter((t) => namesProduct(t, p));
  if (SHOPPING_INTENT.test(message)) {
    if (named.length) return true;
    const described = new Set(words(p.description));
    return terms.some((t) => t.length >= 4 && (described.has(t) || described.has(t.replace(/e?s$/, ''))));
  }
  const content = terms.filter((t) => !SHOP_WORDS.has(t) && !/^\d+$/.test(t));
  return named.length > 0 && named.length * 2 >= content.length;
}
