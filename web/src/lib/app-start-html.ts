// Relative, not @shop/contracts: vite.config.ts imports this file, and Node loads the config's bare imports
// from node_modules as they are (contracts ships TypeScript sources).
import { APP_START_SCRIPT } from '../../../contracts/src/theme';

/**
 * The production index.html paints before the app's code runs and lets the page's stylesheet and
 * images go first on a slow link (issue 22; contracts/src/theme.ts, APP_START_SCRIPT). The entry
 * `<script type="module">` the build writes becomes a low-priority modulepreload of the same file
 * (fetched and compiled as before, run later) followed by the start script, which imports it after the
 * page's first contentful paint. The page chunks the server adds (server/src/modules/seo/route-preload.ts)
 * are preloaded at the same low priority. Anything but exactly one entry script fails the build.
 */
export function paintBeforeAppStart(html: string): string {
  const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/g;
  const found = [...html.matchAll(entry)];
  if (found.length !== 1) throw new Error(`paintBeforeAppStart: expected one entry script in index.html, found ${found.length}`);
  return html.replace(
    entry,
    (_tag, src: string) => `<link rel="modulepreload" fetchpriority="low" crossorigin href="${src}" data-app-entry>\n    <script>${APP_START_SCRIPT}</script>`,
  );
}
