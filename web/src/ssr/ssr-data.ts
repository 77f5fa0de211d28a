import type { User } from '@shop/contracts';
import type { DehydratedState } from '@tanstack/react-query';
import type { Mode } from '../lib/store';

/** The id of the `<script type="application/json">` block that carries SSR data to the browser. */
export const SSR_DATA_ID = 'ssr-data';

/**
 * What the server hands the browser with a rendered page: the theme it rendered, the signed-in user it
 * rendered the header for (their cart, if read, is among the queries), whether the request had a session
 * cookie at all, and the queries it loaded.
 */
export interface SsrData {
  mode: Mode;
  user?: User;
  /**
   * The page's request carried no session cookie: nobody is signed in for it, and GET users/current
   * would say so (the browser does not ask, unless it stored a session it may renew).
   */
  noSession?: true;
  queries: DehydratedState;
}

/** JSON safe inside a `<script>` element (contracts/src/html.ts). */
export { jsonForScript } from '@shop/contracts/html';
