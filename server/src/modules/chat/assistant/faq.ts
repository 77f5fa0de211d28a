export interface FaqEntry { id: string; keywords: string[]; question: string; answer: string }

/** How long the FAQ read from the database is used before it is read again (other instances' edits show within this). */
export const FAQ_CACHE_MS = 30_000;

type FaqSource = () => Promise<FaqEntry[]>;
let source: FaqSource | undefined;
let cached: FaqEntry[] = [];
let loadedAt = 0;
let loading: Promise<void> | undefined;

/**
 * Where the FAQ comes from: the FAQ page's entries in the database (the pages module sets this at
 * start, and reads them once before the app answers).
 */
export async function setFaqSource(next: FaqSource): Promise<void> {
  source = next;
  loading = undefined;
  await refreshFaq();
}

/** Reads the FAQ again now (after an edit on this instance). A failed read keeps the entries already held. */
export function refreshFaq(): Promise<void> {
  const from = source;
  if (!from) return Promise.resolve();
  loading ??= from()
    .then((entries) => {
      if (source === from) {
        cached = entries;
        loadedAt = Date.now();
      }
    })
    .catch(() => undefined)
    .finally(() => {
      loading = undefined;
    });
  return loading;
}

/** The FAQ the assistant answers shipping, returns and payment questions from (edited in Admin → Pages → FAQ). */
export function loadFaq(): FaqEntry[] {
  if (Date.now() - loadedAt > FAQ_CACHE_MS) void refreshFaq(); // answers with what it holds; the next call sees the new read
  return cached;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Words that say nothing about which answer is meant. */
const FAQ_STOPWORDS = new Set(('a an the is are was do does did can could would will should i you we me my your our it its this that what which who ' +
  'how when where why of for to in on at with and or about from by be have has any there please tell know get').split(' '));
const contentWords = (text: string) => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= 3 && !FAQ_STOPWORDS.has(w));
/** The same word, or one with an ending ("wrap" / "wrapping", "ship" / "shipping"). */
const sameWord = (a: string, b: string) => a === b || (Math.min(a.length, b.length) >= 4 && (a.startsWith(b) || b.startsWith(a)));

/** An FAQ entry with how well it matches a message. */
export interface ScoredFaq { entry: FaqEntry; score: number }

/**
 * How well each FAQ entry matches a message, best first (entries that match nothing left out):
 * each keyword found (as a word start) scores 2, plus 1 for each further word of a keyword of several
 * words ("gift wrap", "how long"), plus 1 for each word of the message that its question also holds.
 * A score, so a specific entry ("gift wrapping") beats a generic word elsewhere ("my order").
 */
export function scoreFaq(text: string, entries = loadFaq()): ScoredFaq[] {
  const lower = text.toLowerCase();
  const asked = contentWords(text);
  return entries
    .map((entry) => {
      const hits = entry.keywords.filter((k) => k.trim() && new RegExp(`\\b${escape(k.toLowerCase().trim())}`).test(lower));
      if (!hits.length) return { entry, score: 0 };
      const question = contentWords(entry.question);
      const overlap = asked.filter((w) => question.some((q) => sameWord(w, q))).length;
      return { entry, score: hits.reduce((n, k) => n + 1 + k.trim().split(/\s+/).length, 0) + overlap };
    })
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score);
}

/** FAQ entries whose keywords occur in the text (as whole words), best match first. */
export function matchFaq(text: string, entries = loadFaq()): FaqEntry[] {
  return scoreFaq(text, entries).map((x) => x.entry);
}
