/** Escapes text for an HTML attribute value or element content. */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Escapes text for XML (sitemaps). */
export const escapeXml = escapeHtml;

/** JSON for a `<script type="application/ld+json">` block (contracts/src/html.ts). */
export { jsonForScript } from '@shop/contracts/html';

/** Collapses whitespace and shortens to `max` characters on a word boundary. */
export function summarize(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  // Cut at the last whole word unless that loses too much.
  const space = flat[max - 1] === ' ' ? cut.length : cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s.,;:!-]+$/, '')}…`;
}

/**
 * Replaces the document title, drops the default description and canonical, and appends `tags`
 * to the head.
 */
export function rewriteHead(html: string, title: string, tags: string[]): string {
  const withoutDefaults = html
    .replace(/<title>[\s\S]*?<\/title>/i, '')
    .replace(/<meta\s+name=["']description["'][^>]*>\s*/i, '')
    .replace(/<link\s+rel=["']canonical["'][^>]*>\s*/i, '');
  const block = [`<title>${escapeHtml(title)}</title>`, ...tags].join('\n    ');
  const headEnd = withoutDefaults.search(/<\/head>/i);
  if (headEnd === -1) return withoutDefaults;
  return `${withoutDefaults.slice(0, headEnd)}  ${block}\n  ${withoutDefaults.slice(headEnd)}`;
}
