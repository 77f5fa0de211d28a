import type { DehydratedState } from '@tanstack/react-query';
import type { Mode } from '../app/store';

/** The id of the `<script type="application/json">` block that carries SSR data to the browser. */
export const SSR_DATA_ID = 'ssr-data';

/** What the server hands the browser with a rendered page: the theme it rendered and the queries it loaded. */
export interface SsrData {
  mode: Mode;
  queries: DehydratedState;
}

/** JSON safe inside a `<script>` element: nothing in it can close the element or start a comment. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
