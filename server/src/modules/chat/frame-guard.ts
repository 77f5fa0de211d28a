import { chatClientFrameSchema, type ChatClientFrame } from '@shop/contracts';

/** Deeper JSON than this is refused before it is parsed (no client frame nests more than 1). */
export const MAX_FRAME_DEPTH = 8;
/** This many invalid frames within INVALID_FRAMES_WINDOW_MS close the socket (4400). */
export const MAX_INVALID_FRAMES = 30;
export const INVALID_FRAMES_WINDOW_MS = 10_000;

export type FrameCheck = { ok: true; frame: ChatClientFrame } | { ok: false; reason: string };

/** The greatest nesting of arrays and objects in a JSON text, counted without parsing it (strings skipped). */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i += 1;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) {
      inString = true;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      depth -= 1;
    }
  }
  return false;
}

function containsNul(value: unknown, depth = 0): boolean {
  if (depth > MAX_FRAME_DEPTH) return true;
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some((v) => containsNul(v, depth + 1));
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) if (k.includes('\u0000') || containsNul(v, depth + 1)) return true;
  }
  return false;
}

/**
 * Reads one incoming frame: text, JSON, at most MAX_FRAME_DEPTH deep, no NUL anywhere, and one of
 * the client frame types of @shop/contracts with the right field types. Never throws. Size (1009)
 * and UTF-8 validity (1007) are enforced by `ws` before a frame gets here.
 */
export function checkClientFrame(raw: unknown, isBinary: boolean): FrameCheck {
  if (isBinary) return { ok: false, reason: 'binary' };
  let text: string;
  if (typeof raw === 'string') text = raw;
  else if (Buffer.isBuffer(raw)) text = raw.toString('utf8');
  else if (Array.isArray(raw)) text = Buffer.concat(raw as Buffer[]).toString('utf8');
  else if (raw instanceof ArrayBuffer) text = Buffer.from(raw).toString('utf8');
  else return { ok: false, reason: 'not text' };
  if (text.includes('\u0000')) return { ok: false, reason: 'nul' };
  if (jsonDepthExceeds(text, MAX_FRAME_DEPTH)) return { ok: false, reason: 'too deep' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not json' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, reason: 'not an object' };
  if (containsNul(value)) return { ok: false, reason: 'nul' };
  const parsed = chatClientFrameSchema.safeParse(value);
  if (!parsed.success) return { ok: false, reason: 'schema' };
  return { ok: true, frame: parsed.data };
}

/** Counts invalid frames of one socket in a sliding window; true once the socket should be closed. */
export function createInvalidFrameCounter(now: () => number = Date.now) {
  const times: number[] = [];
  return {
    hit(): boolean {
      const t = now();
      times.push(t);
      while (times.length && times[0]! <= t - INVALID_FRAMES_WINDOW_MS) times.shift();
      return times.length >= MAX_INVALID_FRAMES;
    },
  };
}
