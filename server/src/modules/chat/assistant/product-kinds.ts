import { SHOP_WORDS, termNames } from './relevance.ts';
import { STOPWORDS, type ProductFact } from './shop-tools.ts';

/**
 * What kind of product a question is about ("laptop", "wireless headphones", "books") and which
 * products are of that kind. "Any laptop under $1000?" asks about laptops: the Zenbook laptop is
 * one, a laptop stand is not (its name only mentions laptops), a tote bag that "fits a laptop" is
 * not either. So each word of the question is matched against each product in tiers:
 *   0 the product's head word (the last word of its name, "Zenbook Air 14 Laptop") or its category;
 *   1 another word of its name ("Zentek Aluminium Laptop Stand");
 *   2 its brand;
 *   3 its description;
 * and the word that matches best is the kind; the products matching it at that tier are the kind's.
 * The other words narrow softly ("wireless headphones": the wireless ones first, if any).
 */

/** Everyday words for what the catalogue names otherwise. */
const SYNONYMS: Record<string, string[]> = {
  phone: ['smartphone'], phones: ['smartphone'], mobile: ['smartphone'], mobiles: ['smartphone'], cellphone: ['smartphone'], iphone: ['smartphone'],
  watch: ['smartwatch'], watches: ['smartwatch'],
  earphones: ['earbuds'], earphone: ['earbuds'], headset: ['headphones'], headsets: ['headphones'],
  computer: ['laptop'], computers: ['laptop'],
  shoes: ['sneakers'], shoe: ['sneakers'], trainers: ['sneakers', 'shoes'], sneaker: ['sneakers'],
  perfume: ['parfum', 'fragrance'], perfumes: ['parfum', 'fragrance'], fragrance: ['parfum'], scent: ['parfum'],
  ball: ['football', 'basketball'], balls: ['football', 'basketball'],
  tee: ['shirt'], tshirt: ['shirt'], tees: ['shirt'],
  plushie: ['plush'], plushies: ['plush'], stuffed: ['plush', 'teddy'],
  cup: ['mug'], cups: ['mug'],
  pack: ['backpack'], rucksack: ['backpack'],
  skincare: ['serum', 'cream', 'mask', 'butter'],
};

/** Catalogue words to search for besides a typed word ("phone" → "smartphone"). */
export const synonymQueries = (term: string): string[] => SYNONYMS[term] ?? [];

/** Words a question uses around the kind that name no product. */
const NOT_KINDS = new Set((
  'expensive priciest pricey rated rating ratings reviews reviewed review top newest latest recent recently added arrivals arrival popular ' +
  'under below over above around about between less more dollars dollar usd bucks budget affordable lowest highest least most price priced ' +
  'options option item items product products thing things stuff one ones available something anything everything recommend suggest ' +
  'shop store sell sells selling have got need want looking look show find buy get give your you our we any some what which whats ' +
  'in stock cheap cheaper cheapest best good great nice quality new me my i him her them someone for with the a an is are do does of to'
).split(' '));

/** Words after which a name's head is the word before ("Coffee Cups Set", "Speaker Pair"). */
const COLLECTION = new Set(['set', 'pair', 'trio', 'duo', 'kit', 'pack', 'bundle', 'collection', 'night']);

const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** The word a product name is built around: "Snake Plant in Ceramic Pot" → plant, "Vinyl Desk Speaker Pair" → speaker. */
export function headWord(name: string): string {
  const main = name.toLowerCase().split(/\s+(?:in|with|for|of|from)\s+/)[0] ?? name;
  const words = wordsOf(main);
  while (words.length > 1 && (COLLECTION.has(words.at(-1)!) || /^\d+$/.test(words.at(-1)!))) words.pop();
  return words.at(-1) ?? '';
}

/** A typed term and the catalogue word it may stand for: the word, an ending or a typo of it, or a short code ("x5", "a5"). */
const matches = (term: string, word: string) => term === word || termNames(term, word);
const forms = (term: string) => [term, ...(SYNONYMS[term] ?? [])];

/** How well a term names a product: 0 head word or category, 1 name, 2 brand, 3 description, 4 not at all. */
export function tierOf(term: string, p: ProductFact): number {
  const fs = forms(term);
  const any = (words: string[]) => fs.some((f) => words.some((w) => matches(f, w)));
  if (any([headWord(p.name), ...wordsOf(p.category)])) return 0;
  if (any(wordsOf(p.name))) return 1;
  if (fs.some((f) => wordsOf(p.brand).includes(f))) return 2;
  const described = new Set(wordsOf(p.description));
  if (fs.some((f) => f.length >= 4 && (described.has(f) || described.has(`${f}s`) || described.has(f.replace(/e?s$/, ''))))) return 3;
  return 4;
}

/** The words of a question that may name a kind of product (budget, superlative and filler words left out). */
export function kindTerms(text: string): string[] {
  return wordsOf(text).filter((w) => w.length > 1 && !STOPWORDS.has(w) && !NOT_KINDS.has(w) && !/^\d+(?:\.\d+)?$/.test(w));
}

export interface Kind {
  /** The words as the shopper typed them ("wireless headphones"), for the answer. */
  label: string;
  /** The products of that kind among the candidates, best matches first. */
  products: ProductFact[];
  /** Words that name a product but matched none ("cheapest car"): the shop has no such thing. */
  unknown: string[];
  /** Words that name products of the catalogue (the kind's among them). */
  named: string[];
  /** How the kind's word names its products (tierOf): 3 only through their descriptions. 4: nothing named. */
  tier: number;
}

/**
 * The kind a question's words name among candidate products (from the shop's search), and those
 * of that kind. With no word that could name a product ("what's your cheapest item?"), every
 * candidate is of the kind.
 */
export function selectKind(terms: string[], candidates: ProductFact[]): Kind {
  const naming = terms.filter((t) => !SHOP_WORDS.has(t));
  if (!naming.length) return { label: '', products: candidates, unknown: [], named: [], tier: 0 };
  const best = naming.map((t) => ({ t, tier: Math.min(4, ...candidates.map((p) => tierOf(t, p))) }));
  const found = best.filter((b) => b.tier < 4);
  if (!found.length) return { label: naming.join(' '), products: [], unknown: naming, named: [], tier: 4 };
  // The kind: the best-matching word, the last of equals ("running shoes" → shoes).
  const head = found.reduce((a, b) => (b.tier <= a.tier ? b : a));
  const ofKind = candidates.filter((p) => tierOf(head.t, p) === head.tier);
  // The other words narrow: products matching most of them (if any matches at all).
  const others = terms.filter((t) => t !== head.t);
  const score = (p: ProductFact) => others.filter((t) => tierOf(t, p) < 4).length;
  const top = Math.max(0, ...ofKind.map(score));
  const label = terms.filter((t) => t === head.t || (!SHOP_WORDS.has(t) && top > 0 && ofKind.some((p) => score(p) === top && tierOf(t, p) < 4))).join(' ');
  return { label, products: ofKind.filter((p) => score(p) === top), unknown: best.filter((b) => b.tier === 4).map((b) => b.t), named: found.map((b) => b.t), tier: head.tier };
}
