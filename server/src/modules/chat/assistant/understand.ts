import { findCountry, type NamedCountry } from './countries.ts';
import { editDistanceWithin } from './relevance.ts';

/**
 * What a shopper's message asks, read from the whole sentence rather than one keyword: a budget,
 * a superlative, a comparison, a country, a wish for a person, how surely it is about their orders.
 * Pure functions: the built-in assistant decides what to answer from this (built-in-assistant.ts).
 */

/** A price limit as the shopper said it: "under $1000" (max, strict), "between $50 and $100", "around $300". */
export interface Budget {
  min?: number;
  max?: number;
  /** "under" / "below" / "less than": the limit itself is not included. */
  strictMax?: boolean;
  strictMin?: boolean;
  /** "around $300": the closest prices first. */
  around?: number;
}

export type Superlative = 'cheapest' | 'priciest' | 'best-rated' | 'newest';

/** Two things to compare, as typed; `explicit` when the message says so ("compare", "vs", "better", "difference"). */
export interface Comparison { splits: Array<[left: string, right: string]>; explicit: boolean }

/** Why a person is wanted: asked for ("talk to a human") or the shopper is upset (anger, insults). */
export type HandOff = 'asked' | 'upset';

// ------------------------------------------------------------------------------------------------
// Money and budgets

const UNIT_AFTER = /^\s*(?:years?|yrs?|y\/o|months?|days?|weeks?|hours?|kg|g|grams?|cm|mm|m|inch(?:es)?|in|"|l|litres?|liters?|ml|oz|players?|people|pages?|pieces?|pcs|mp|gb|tb|w|watts?|%|percent|stars?|items?|reviews?)\b/i;
const MONEY = String.raw`(?:us\$|\$|usd\s?|€|£)?\s?(\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d+(?:\.\d{1,2})?)\s?(k\b)?(?:\s?(\$|dollars?|usd|bucks|€|£|euros?|pounds?))?`;

interface MoneyMatch { value: number; marked: boolean; end: number }

/** A money amount at the start of `s` ("$1,000", "50 dollars", "1.5k"); `marked` when it carries a currency. */
function moneyAt(s: string): MoneyMatch | null {
  const m = new RegExp(`^${MONEY}`, 'i').exec(s);
  if (!m) return null;
  const value = Number(m[1]!.replace(/,/g, '')) * (m[2] ? 1000 : 1);
  const marked = /[$€£]|usd/i.test(m[0]) || Boolean(m[3]) || Boolean(m[2]);
  if (!marked && UNIT_AFTER.test(s.slice(m[0].length))) return null;
  // A bare small number ("toys for kids under 5") is an age or a size, not a price.
  if (!marked && value < 10) return null;
  return { value, marked, end: m[0].length };
}

const MAX_WORDS = String.raw`under|below|beneath|less than|lower than|cheaper than|no more than|not more than|not over|nothing (?:over|above|more than)|not (?:above|more than)|up to|max(?:imum)?(?: of)?|at most|within|for less than|tops|<=?`;
const MIN_WORDS = String.raw`over|above|more than|at least|greater than|upwards of|min(?:imum)?(?: of)?|>=?`;
const AROUND_WORDS = String.raw`around|about|approximately|approx\.?|roughly|close to|near|nearly|~|circa|something like|in the region of|ballpark(?: of)?`;
const STRICT_MAX = /^(under|below|beneath|less than|lower than|cheaper than|for less than|<)$/i;

/** The budget a message states, and the message without it (so "$1000" is not searched for). */
export function findBudget(text: string): { budget: Budget | null; rest: string } {
  const lower = text.toLowerCase();
  // "between $50 and $100", "from 50 to 100 dollars", "$50-$100", "$50 to $100"
  const range = new RegExp(String.raw`(?:\b(between|from)\s+)?${MONEY}\s*(?:and|to|-|–)\s*${MONEY}`, 'i');
  const r = range.exec(lower);
  if (r) {
    const a = moneyAt(r[0].replace(/^(between|from)\s+/i, ''));
    const tail = r[0].replace(/^(between|from)\s+/i, '').slice(a?.end ?? 0).replace(/^\s*(and|to|-|–)\s*/i, '');
    const b = moneyAt(tail);
    if (a && b && (r[1] || a.marked || b.marked) && a.value <= b.value) {
      return { budget: { min: a.value, max: b.value }, rest: cut(text, r.index, r[0].length) };
    }
  }
  const forms: Array<[words: string, kind: 'max' | 'min' | 'around']> = [[MAX_WORDS, 'max'], [MIN_WORDS, 'min'], [AROUND_WORDS, 'around']];
  for (const [words, kind] of forms) {
    const re = new RegExp(String.raw`(?:^|[^\p{L}])(${words})\s+(?:a\s+|the\s+|of\s+)?(?=[$€£\d]|us\$|usd)`, 'giu');
    for (const m of lower.matchAll(re)) {
      const start = m.index + m[0].length;
      const money = moneyAt(lower.slice(start));
      if (!money) continue;
      const budget: Budget = kind === 'max' ? { max: money.value, ...(STRICT_MAX.test(m[1]!) ? { strictMax: true } : {}) }
        : kind === 'min' ? { min: money.value, ...(/^(over|above|more than|greater than|>)$/i.test(m[1]!) ? { strictMin: true } : {}) }
          : { around: money.value };
      return { budget, rest: cut(text, m.index, start + money.end - m.index) };
    }
  }
  // "$50 or less", "100 dollars max", "budget of $80", "I can spend 200"
  const after = new RegExp(String.raw`${MONEY}\s+(?:or\s+(less|under|below|cheaper|more|over|above)|(max(?:imum)?|tops|or so|ish))\b`, 'i').exec(lower);
  if (after) {
    const money = moneyAt(after[0]);
    if (money && (money.marked || money.value >= 10)) {
      const word = (after[4] ?? after[5] ?? '').toLowerCase();
      const budget: Budget = /^(more|over|above)$/.test(word) ? { min: money.value } : /^(or so|ish)$/.test(word) ? { around: money.value } : { max: money.value };
      return { budget, rest: cut(text, after.index, after[0].length) };
    }
  }
  const spend = new RegExp(String.raw`\b(?:budget(?:\s+is|\s+of|:)?|i (?:can|could|want to) spend|i have|i've got|spend(?:ing)?)\s+(?:only\s+|about\s+|around\s+)?(?=[$€£\d]|us\$|usd)`, 'i').exec(lower);
  if (spend) {
    const money = moneyAt(lower.slice(spend.index + spend[0].length));
    if (money?.marked || (money && /budget/i.test(spend[0]))) return { budget: { max: money.value }, rest: cut(text, spend.index, spend[0].length + money.end) };
  }
  return { budget: null, rest: text };
}

const cut = (text: string, at: number, length: number) => `${text.slice(0, at)} ${text.slice(at + length)}`;

/** Whether a price is within a budget ("around": within 25 %). */
export function withinBudget(price: number, b: Budget): boolean {
  if (b.around !== undefined) return Math.abs(price - b.around) <= b.around * 0.25;
  if (b.min !== undefined && (b.strictMin ? price <= b.min : price < b.min)) return false;
  if (b.max !== undefined && (b.strictMax ? price >= b.max : price > b.max)) return false;
  return true;
}

const usd = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** "under $1,000.00", "between $50.00 and $100.00", "around $300.00". */
export function describeBudget(b: Budget): string {
  if (b.around !== undefined) return `around ${usd(b.around)}`;
  if (b.min !== undefined && b.max !== undefined) return `between ${usd(b.min)} and ${usd(b.max)}`;
  if (b.max !== undefined) return `${b.strictMax ? 'under' : 'up to'} ${usd(b.max)}`;
  return `${b.strictMin ? 'over' : 'from'} ${usd(b.min ?? 0)}`;
}

// ------------------------------------------------------------------------------------------------
// Superlatives

const SUPERLATIVES: Array<[Superlative, RegExp]> = [
  ['priciest', /\b(most expensive|priciest|highest[- ]priced?|highest price|most premium|dearest|top[- ]of[- ]the[- ]range)\b/i],
  ['cheapest', /\b(cheapest|least expensive|lowest[- ]priced?|lowest price|most affordable|best price|cheapest one|least costly|cheap|affordable|inexpensive|low[- ]cost|budget)\b/i],
  ['best-rated', /\b(best[- ]rated|top[- ]rated|highest[- ]rated|best[- ]reviewed|best reviews|highest rating|most (?:popular|loved|liked)|rated (?:the )?(?:best|highest)|best(?! (?:price|deal|value|way|time))|finest)\b/i],
  ['newest', /\b(newest|latest|most recent|newly added|new arrivals?|just arrived|what'?s new|recently added|brand new)\b/i],
];

/** The superlative a message asks for, and the message without it. */
export function findSuperlative(text: string): { superlative: Superlative | null; rest: string } {
  for (const [kind, re] of SUPERLATIVES) {
    const m = re.exec(text);
    if (m) return { superlative: kind, rest: cut(text, m.index, m[0].length) };
  }
  return { superlative: null, rest: text };
}

// ------------------------------------------------------------------------------------------------
// Comparisons

const CUE = /\b(compare|compared|comparison|comparing|difference|differences|differ|vs\.?|versus|better|which one|which is|which should|should i (?:get|buy|choose|pick|go for))\b/i;

/**
 * Two things the message compares, in any wording: "difference between A and B", "A vs B",
 * "compare A with B", "which is better, A or B", "is A better than B", "A or B?". Every place the
 * sentence could be cut in two is returned (a name may hold "and": "Stars and Planets Atlas"); the
 * caller keeps the cut whose two sides each name a product.
 */
export function findComparison(text: string): Comparison | null {
  let t = ` ${text.replace(/[?!.]+\s*$/, '').trim()} `;
  const explicit = CUE.test(t);
  t = t
    .replace(/\b(?:what(?:'s| is| are)\s+)?(?:the\s+)?(?:main\s+|real\s+)?differences?\s+between\b/i, ' ')
    .replace(/\bhow\s+(?:does|do|is|are)\s+(.+?)\s+(?:compare|compared|different)\s+(?:to|with|from)\b/i, ' $1 vs ')
    .replace(/\b(?:compared|comparing)\s+(?:to|with)\b/i, ' vs ')
    .replace(/\b(?:can you\s+|could you\s+|please\s+)?compare\b/i, ' ')
    .replace(/\bcomparison\s+(?:of|between)\b/i, ' ')
    .replace(/\b(?:is|are)\s+(.+?)\s+(?:better|worse|cheaper)\s+than\b/i, ' $1 vs ')
    .replace(/\b(?:better|worse|cheaper)\s+than\b/i, ' vs ')
    .replace(/\b(?:which|what)(?:\s+one)?\s+(?:is|'s|would you recommend|do you recommend|should i (?:get|buy|choose|pick|go for))(?:\s+(?:better|best|the better one|cheaper|good))?\b/i, ' ')
    .replace(/\bshould i (?:get|buy|choose|pick|go for)\b/i, ' ')
    .replace(/\b(?:is|are)\s+(?:better|best)\b/i, ' ')
    .replace(/[,:;()]/g, ' ');
  const separators = [/\s(?:vs\.?|versus|v\.?s\.?|against)\s/gi, /\sor\s/gi, ...(explicit ? [/\s(?:and|&|with|to)\s/gi] : [])];
  for (const sep of separators) {
    const splits: Array<[string, string]> = [];
    for (const m of t.matchAll(sep)) {
      const left = clean(t.slice(0, m.index));
      const right = clean(t.slice(m.index + m[0].length));
      if (left && right) splits.push([left, right]);
    }
    if (splits.length) return { splits, explicit };
  }
  return null;
}

const clean = (side: string) => side.replace(/\b(?:the|a|an|between|please|and|or)\b/gi, ' ').replace(/\s+/g, ' ').trim();

// ------------------------------------------------------------------------------------------------
// A person, anger

const PERSON = String.raw`(?:(?:a|an|the|some|your|real|actual|live|proper)\s+)*(?:person|human(?:\s+being)?|humans|someone|somebody|agent|representative|rep|operator|admin(?:istrator)?|manager|supervisor|staff(?:\s+member)?|people|employee|customer\s+(?:service|support|care)|support(?:\s+team)?|team)`;
const ASKS_PERSON = [
  new RegExp(String.raw`\b(?:talk|speak|chat|get through|write)\s+(?:to|with)\s+${PERSON}\b`, 'i'),
  new RegExp(String.raw`\b(?:connect|transfer|put)\s+me\s+(?:to|with|through\s+to)\s+${PERSON}\b`, 'i'),
  new RegExp(String.raw`\b(?:i want|i need|i'?d like|give me|get me|can i (?:get|have)|let me have)\s+${PERSON}\b`, 'i'),
  /\b(?:real|live|actual)\s+(?:person|human|agent|people)\b/i,
  /^\s*(?:a\s+)?(?:human|agent|representative|operator|person|real person)\b/i,
  /\b(?:is there|are there|are you)\s+(?:a\s+|an\s+|any\s+)?(?:real\s+)?(?:human|person|people)\b/i,
  /\bhuman\s+(?:please|now|agent|help)\b/i,
  /\b(?:can|could|will|would)\s+(?:a|an|some|any)\s+(?:real\s+)?(?:person|human|agent|someone|somebody|administrator|admin)\s+(?:help|talk|answer|assist|call)\b/i,
];

const UPSET = /\b(?:stupid|idiot|idiots|idiotic|dumb|moron|morons|useless|worthless|pathetic|incompetent|rubbish|garbage|trash|crap|crappy|shit|shitty|bullshit|fuck\w*|f\*+k\w*|wtf|damn|dammit|screw you|hate (?:you|this|it|your)|you suck|this sucks|it sucks|sucks|terrible|horrible|awful|worst (?:shop|store|service|bot|assistant|experience|company|ever)|ridiculous|unacceptable|disgusting|disgrace(?:ful)?|scam|scammers?|fraud|liars?|rip[- ]?off|furious|angry|so annoyed|annoying|fed up|sick of|shut up|waste of (?:time|money)|not helpful|unhelpful|no help|doesn'?t help|not helping|you don'?t understand|can'?t you understand|are you (?:stupid|dumb|kidding|serious)|joke of a|(?:is|are|what) (?:a |such a )?(?:joke|farce))\b/i;

/** Whether the message asks for a person or shows the shopper is upset (anger, insults, shouting). */
export function findHandOff(text: string): HandOff | null {
  // Upset first: the apology then owns up to not having helped.
  if (UPSET.test(text) || /[!?]{3,}/.test(text)) return 'upset';
  const letters = text.replace(/[^\p{L}]/gu, '');
  if (letters.length >= 12 && letters === letters.toUpperCase() && letters !== letters.toLowerCase() && text.trim().split(/\s+/).length >= 3) return 'upset';
  if (ASKS_PERSON.some((re) => re.test(text))) return 'asked';
  return null;
}

// ------------------------------------------------------------------------------------------------
// Orders and shipping

/** Sure signs of a question about the shopper's own orders. */
const ORDER_SURE = /\b(where(?:'s| is| are)\s+my|order status|status of my|track(?:ing)?\s+(?:my|the|an?)\s+(?:order|package|parcel|delivery|shipment)|tracking\s+(?:number|info|information|code|link|details)|track my|has my (?:order|package|parcel)|did my (?:order|package|parcel)|when will my|my (?:last|latest|recent|previous|current) orders?|order history|orders? (?:has |have |was |been )+(?:shipped|delivered|arrived|dispatched)|(?:was|is|has|have) my (?:order|package|parcel)|my (?:package|parcel|delivery)|what did i (?:order|buy)|did i order|my purchases?|cancel my order|order (?:number|no\.?|#))/i;
/** "my order" alone: about an order, but any other topic it names (gift wrap, returns) may be the point. */
const ORDER_ANY = /\b(?:my|the|an?|this|our)\s+orders?\b|\borders?\s+(?:i|we)\b/i;

/** How surely a message is about the shopper's own orders: 3 sure ("where is my order"), 1 it mentions one ("gift wrap my order"), 0 not. */
export function orderIntent(text: string): 0 | 1 | 3 {
  if (ORDER_SURE.test(text)) return 3;
  return ORDER_ANY.test(text) ? 1 : 0;
}

/** Words of a question about shipping: cost, time, destinations. */
export const SHIPPING_WORDS = /\b(ship|ships|shipping|shipped|deliver|delivers|delivered|delivery|deliveries|postage|courier|send(?:ing)?\b[^.?!]{0,25}\bto\b|arrive|arrival|how long|transit|freight|dispatch)/i;

// ------------------------------------------------------------------------------------------------

/** Everything read from one message. `rest` is the message without the budget and superlative phrases. */
export interface Understanding {
  budget: Budget | null;
  superlative: Superlative | null;
  comparison: Comparison | null;
  handoff: HandOff | null;
  country: NamedCountry | null;
  aboutShipping: boolean;
  orders: 0 | 1 | 3;
  rest: string;
}

/** Words the reading depends on, so a typo of one ("cheapst", "shiping") still counts. */
const VOCABULARY = ['cheapest', 'expensive', 'newest', 'latest', 'between', 'around', 'dollars', 'difference', 'compare', 'versus', 'shipping', 'delivery', 'deliver', 'recommend'];

/** The message with typos of VOCABULARY words corrected (same first letter, one edit from 6 letters, two from 9). */
export function correctTypos(text: string): string {
  return text.replace(/\p{L}{5,}/gu, (word) => {
    const lower = word.toLowerCase();
    if (VOCABULARY.includes(lower)) return word;
    const fix = VOCABULARY.find((v) => v[0] === lower[0] && Math.abs(v.length - lower.length) <= 1 && Math.min(v.length, lower.length) >= 6
      && editDistanceWithin(lower, v, Math.min(v.length, lower.length) >= 9 ? 2 : 1));
    return fix ?? word;
  });
}

export function understand(message: string): Understanding {
  const text = correctTypos(message);
  const b = findBudget(text);
  const s = findSuperlative(b.rest);
  return {
    budget: b.budget,
    superlative: s.superlative,
    comparison: findComparison(text),
    handoff: findHandOff(text),
    country: findCountry(text),
    aboutShipping: SHIPPING_WORDS.test(text),
    orders: orderIntent(text),
    rest: s.rest,
  };
}
