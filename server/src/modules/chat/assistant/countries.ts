import { createRequire } from 'node:module';
import countries, { type LocaleData } from 'i18n-iso-countries';

/** A country a message names: its ISO 3166 two-letter code and English name ("Canada", "the United States"). */
export interface NamedCountry { code: string; name: string }

/**
 * The languages whose country names are recognised: a shopper may write "Deutschland", "España" or
 * "Italia" in an English sentence. Each is a small JSON file of i18n-iso-countries.
 */
const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt'] as const;

/** Common forms the library does not list. */
const ALIASES: Record<string, string> = {
  america: 'US', 'the states': 'US', 'united states': 'US', 'u s': 'US', 'u s a': 'US',
  england: 'GB', scotland: 'GB', wales: 'GB', 'northern ireland': 'GB', britain: 'GB', 'great britain': 'GB',
  holland: 'NL', korea: 'KR', emirates: 'AE', czechia: 'CZ', 'ivory coast': 'CI',
};

/** Names of up to three letters are recognised only in this list (and "US" only in capitals: "us" is a word). */
const SHORT_NAMES = new Set(['usa', 'uk', 'uae', 'us']);

/** Names that are common English words too: they count only after "to", "in" or "from" ("ship to Turkey"). */
const WORD_NAMES = new Set(['turkey', 'chad', 'jersey', 'georgia', 'jordan', 'china', 'guinea', 'niger', 'mali', 'togo', 'chile', 'peru', 'india', 'panama', 'island', 'reunion', 'dominica']);

/** Countries said with "the" in English. */
const WITH_THE = new Set(['US', 'GB', 'NL', 'AE', 'PH', 'CZ', 'DO', 'BS', 'GM', 'MV', 'CF', 'CD', 'CG', 'KM', 'MH', 'SB', 'VA']);

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
  .replace(/(?<=\b\p{L})\.(?=\p{L}\b|\s|$)/gu, ' ') // "U.S.A." → "u s a "
  .replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

let table: Map<string, string> | undefined;

function names(): Map<string, string> {
  if (table) return table;
  const require = createRequire(import.meta.url);
  const map = new Map<string, string>();
  for (const lang of LANGUAGES) {
    const data = require(`i18n-iso-countries/langs/${lang}.json`) as LocaleData;
    countries.registerLocale(data);
    for (const [code, value] of Object.entries(data.countries)) {
      for (const name of Array.isArray(value) ? value : [value]) {
        const key = fold(name);
        if (key && !map.has(key) && (key.replace(/ /g, '').length > 3 || SHORT_NAMES.has(key.replace(/ /g, '')))) map.set(key, code);
      }
    }
  }
  for (const [alias, code] of Object.entries(ALIASES)) map.set(alias, code);
  for (const short of SHORT_NAMES) if (!map.has(short)) map.set(short, short === 'uk' ? 'GB' : short === 'uae' ? 'AE' : 'US');
  table = map;
  return map;
}

const englishNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** "Canada", "the United States" (the runtime's English name of the code). */
export function countryName(code: string): string {
  const name = englishNames.of(code) ?? countries.getName(code, 'en') ?? code;
  return WITH_THE.has(code) ? `the ${name}` : name;
}

const MAX_WORDS = 6;

/**
 * The first country a message names, in English or one of LANGUAGES, with the usual short forms
 * ("the US", "UK", "USA", "U.S."). The longest name wins ("United States of America" over
 * "America"). "US" counts only in capitals, and a name that is also a common word (Turkey, Chad,
 * Jersey…) only after "to", "in" or "from".
 */
export function findCountry(text: string): NamedCountry | null {
  const map = names();
  // Word by word, keeping the case as typed for "US" (capitals) and the word before for "to Turkey".
  const typed = text.normalize('NFC').replace(/(?<=\b\p{L})\.(?=\p{L}\b|\s|$)/gu, ' ').split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const words = typed.map(fold);
  for (let i = 0; i < words.length; i += 1) {
    for (let n = Math.min(MAX_WORDS, words.length - i); n >= 1; n -= 1) {
      const key = words.slice(i, i + n).join(' ');
      const code = map.get(key);
      if (!code) continue;
      if (key === 'us' && typed[i] !== 'US') continue;
      if (n === 1 && WORD_NAMES.has(key) && !['to', 'in', 'from', 'into'].includes(words[i - 1] ?? '')) continue;
      return { code, name: countryName(code) };
    }
  }
  return null;
}
