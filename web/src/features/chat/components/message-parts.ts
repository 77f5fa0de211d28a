import { CHAT_PRODUCT_LINK_PATTERN } from '@shop/contracts/chat-constants';

export type MessagePart =
  | { kind: 'text'; text: string }
  | { kind: 'link'; text: string; href: string }
  /** A product the assistant named, linking to its page in this shop (same origin, in the app). */
  | { kind: 'product'; text: string; path: string };

/** Longest link text shown; the link itself keeps the whole address. */
export const LINK_TEXT_MAX = 60;

// An address starts at the beginning or after a space or opening bracket/quote, so "xhttp://…" or
// "javascript:http://…" never become links, and runs to the next space or angle bracket/quote.
const URL_CANDIDATE = /(?<=^|[\s([{<"'])https?:\/\/[^\s<>"]+/gi;
const TRAILING = /[.,;:!?'*_~]$/;
const PAIRS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

const count = (s: string, ch: string) => s.split(ch).length - 1;

/**
 * Trims what a sentence puts after an address: final punctuation, and a closing bracket without its
 * opening one inside the address ("(see https://x.example/a)" keeps "https://x.example/a";
 * "https://en.wikipedia.org/wiki/Tea_(drink)" keeps its own brackets).
 */
function trimUrl(raw: string): string {
  let url = raw;
  for (;;) {
    const last = url.at(-1) ?? '';
    if (TRAILING.test(last)) { url = url.slice(0, -1); continue; }
    const open = PAIRS[last];
    if (open && count(url, last) > count(url, open)) { url = url.slice(0, -1); continue; }
    return url;
  }
}

/** An http or https address the browser parses, or null: nothing else ever becomes a link. */
function safeHref(url: string): string | null {
  try {
    const parsed = new URL(url);
    if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !parsed.hostname) return null;
    return parsed.href;
  } catch {
    return null;
  }
}

/** Splits a chat message into plain text and http/https links. */
export function splitMessage(content: string): MessagePart[] {
  const parts: MessagePart[] = [];
  let at = 0;
  for (const match of content.matchAll(URL_CANDIDATE)) {
    const url = trimUrl(match[0]);
    const href = safeHref(url);
    if (!href) continue;
    const start = match.index;
    if (start > at) parts.push({ kind: 'text', text: content.slice(at, start) });
    parts.push({ kind: 'link', text: url, href });
    at = start + url.length;
  }
  if (at < content.length) parts.push({ kind: 'text', text: content.slice(at) });
  return parts;
}

/**
 * An assistant's message: product links written `[Name](/product/slug)` (CHAT_PRODUCT_LINK_PATTERN:
 * only same-origin /product/ and /cj-product/ paths) become product parts, the rest is split as any
 * message. Only for messages the server signed as the assistant's (sender 'ai'): in anyone else's
 * message the same markup stays text.
 */
export function splitAssistantMessage(content: string): MessagePart[] {
  const parts: MessagePart[] = [];
  let at = 0;
  for (const match of content.matchAll(CHAT_PRODUCT_LINK_PATTERN)) {
    if (match.index > at) parts.push(...splitMessage(content.slice(at, match.index)));
    parts.push({ kind: 'product', text: match[1]!, path: match[2]! });
    at = match.index + match[0].length;
  }
  if (at < content.length) parts.push(...splitMessage(content.slice(at)));
  return parts;
}

/** The message as plain text (a product link shows its name): for one-line previews. */
export function messagePreview(content: string, fromAssistant: boolean): string {
  if (!fromAssistant) return content;
  return splitAssistantMessage(content).map((p) => p.text).join('');
}
