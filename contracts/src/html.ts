/**
 * JSON safe inside a `<script>` element (JSON-LD, the server-rendered page's data): `<`, `>` and `&`
 * become unicode escapes so that no value can close the element or start a comment, and U+2028/2029
 * are escaped for old parsers. One definition for the server's SEO tags and the web app's server entry.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
