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

/** FAQ entries whose keywords occur in the text (as whole words), best match first. */
export function matchFaq(text: string, entries = loadFaq()): FaqEntry[] {
  const lower = text.toLowerCase();
  return entries
    .map((e) => ({ e, hits: e.keywords.filter((k) => new RegExp(`\\b${escape(k.toLowerCase())}`).test(lower)).length }))
    .filter((x) => x.hits > 0)
    .sort((a, b) => b.hits - a.hits)
    .map((x) => x.e);
}
