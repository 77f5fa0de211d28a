import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface FaqEntry { id: string; keywords: string[]; question: string; answer: string }

/** The editable FAQ file the assistant answers shipping, returns and payment questions from. */
export const FAQ_FILE = path.join(import.meta.dirname, 'faq.json');

let cached: FaqEntry[] | undefined;

export function loadFaq(file = FAQ_FILE): FaqEntry[] {
  if (file === FAQ_FILE && cached) return cached;
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { entries?: FaqEntry[] };
  const entries = (parsed.entries ?? []).filter((e) => e && typeof e.answer === 'string' && Array.isArray(e.keywords));
  if (file === FAQ_FILE) cached = entries;
  return entries;
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
