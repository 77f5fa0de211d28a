import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.ts';

export const NUL_NOT_ALLOWED = 'NUL characters are not allowed';

/** How a field path is shown in a message: NUL itself printed as \u0000, long keys shortened. */
function showPath(all: Array<string | number>): string {
  const parts = all.length > 12 ? [...all.slice(0, 6), '...', ...all.slice(-5)] : all;
  return parts
    .map((p) => String(p).replaceAll('\u0000', '\\u0000'))
    .map((p) => (p.length > 60 ? `${p.slice(0, 57)}...` : p))
    .join('.');
}

/**
 * The path of the first string (value or object key) that holds a NUL character, or null.
 * PostgreSQL refuses NUL in text and jsonb, so such input must never reach a query. Iterative, so a
 * deeply nested JSON body cannot overflow the stack.
 */
export function findNulPath(value: unknown): string | null {
  // Each entry knows its parent, so a path is only built for the offending string (deep input
  // stays linear).
  interface Node { value: unknown; key: string | number | undefined; parent: Node | undefined }
  const pathOf = (node: Node | undefined, last?: string): string => {
    const parts: Array<string | number> = last === undefined ? [] : [last];
    for (let n = node; n && n.key !== undefined; n = n.parent) parts.push(n.key);
    return showPath(parts.reverse());
  };
  const stack: Node[] = [{ value, key: undefined, parent: undefined }];
  while (stack.length) {
    const node = stack.pop()!;
    const v = node.value;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return pathOf(node);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i -= 1) stack.push({ value: v[i], key: i, parent: node });
    } else if (v !== null && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const key of Object.keys(v)) {
        if (key.includes('\u0000')) return pathOf(node, key);
        stack.push({ value: (v as Record<string, unknown>)[key], key, parent: node });
      }
    }
  }
  return null;
}

/** Throws the 400 for a NUL character in a field of `context` (body, query, params, multipart). */
export function assertNoNul(context: string, value: unknown): void {
  const path = findNulPath(value);
  if (path === null) return;
  const field = path || context;
  throw badRequest(`Invalid ${context} field '${field}': ${NUL_NOT_ALLOWED}`, { [field]: NUL_NOT_ALLOWED }, 'VALIDATION_ERROR');
}

/**
 * One rule for every route, present and future: path parameters, query string and parsed body are
 * checked for NUL characters before schema validation and before any handler runs. Multipart fields
 * are checked as they are read (lib/multipart.ts).
 */
export function registerInputGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    // Unmatched URLs (SPA pages, unknown API routes) reach no handler that reads input: the
    // not-found handler serves the page or a 404 (lib/spa.ts).
    if (request.is404) return;
    assertNoNul('params', request.params);
    assertNoNul('query', request.query);
    assertNoNul('body', request.body);
  });
}
