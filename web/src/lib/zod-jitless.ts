/**
 * Zod 4 probes whether `new Function` is allowed (to compile fast object parsers) the first time a
 * schema is built. The shop's Content-Security-Policy has no 'unsafe-eval', so the probe fails; the
 * failure is caught, but the browser still reports a CSP violation (an "issue" in DevTools and in
 * Lighthouse's best-practices) on every page with a form. `jitless` skips the probe and the compiled
 * parsers, which the CSP forbids anyway. Zod reads this shared object (globalThis.__zod_globalConfig)
 * when its core module loads, so this module is imported first by main.tsx, before any zod code runs.
 */
const scope = globalThis as typeof globalThis & { __zod_globalConfig?: { jitless?: boolean } };
(scope.__zod_globalConfig ??= {}).jitless = true;

export {};
