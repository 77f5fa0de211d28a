/**
 * One page for everyone and cache keys that cannot be busted (issue 35.1, 35.2): the server-rendered
 * storefront pages (home, search, product) asked for by an anonymous visitor (the reference), against
 * - the same pages with parameters no page reads (`utm_*`, `fbclid`, and a value unique to every
 *   request, as a flood of made-up URLs would): before the page key (lib/page-url.ts) each was a
 *   render of its own; now it is the plain page's cache entry;
 * - the same pages asked for by signed-in shoppers (20 sessions, each request one of them): before,
 *   each was rendered for its visitor; now they share the copy for requests with a session cookie.
 * The sides are measured in one run, alternated (the order rotating each round), on one shop: the real
 * server (buildApp, child process) over a generated catalogue with the real web build, loaded by
 * autocannon from this process on 127.0.0.1.
 *
 *   npm run build -w web        # web/dist and web/dist-ssr
 *   node --import tsx bench/ssr/page-cache.ts [--rounds=3] [--seconds=6] [--connections=20]
 *        [--products=2000] [--postgres]   # PostgreSQL: a scratch database on BENCH_DATABASE_URL / TEST_DATABASE_URL
 *
 * Prints each round's pages/s per side and the ratios to the anonymous plain page (goal ≥ 0.8 for both),
 * the median ratios per page, and the load average (other work on the machine lowers every side alike).
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createScratchDatabase } from '../../server/src/db/scratch.ts';
import { ACCESS_COOKIE } from '../../server/src/lib/auth.ts';
import { ServerProcess } from '../catalogue/server-process.ts';

const flag = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
function whole(name: string, fallback: number, max: number): number {
  const raw = flag(name);
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`--${name} must be a whole number from 1 to ${max} (got ${raw})`);
  return n;
}
const ROUNDS = whole('rounds', 3, 20);
const SECONDS = whole('seconds', 6, 60);
const CONNECTIONS = whole('connections', 20, 200);
const PRODUCTS = whole('products', 2_000, 200_000);
const POSTGRES = process.argv.includes('--postgres');
const WEB_DIST = path.resolve(import.meta.dirname, '../../web/dist');
const BASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

type Side = 'plain' | 'tagged' | 'signed-in';
const SIDES: Side[] = ['plain', 'tagged', 'signed-in'];
/** Every request its own made-up URL: a newsletter's utm_ tags plus a value no two requests share. */
const tag = (i: number) => `utm_source=newsletter&utm_medium=email&fbclid=${Date.now().toString(36)}${i}`;

/** Pages/s over `paths` for one side (each request takes the next path, and for signed-in the next session). */
async function measure(port: number, paths: string[], seconds: number, side: Side, cookies: string[]) {
  let n = 0;
  const r = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { accept: 'text/html' },
    requests: [{
      method: 'GET',
      setupRequest: (req) => {
        const i = n++;
        const page = paths[i % paths.length]!;
        if (side === 'tagged') return { ...req, path: `${page}${page.includes('?') ? '&' : '?'}${tag(i)}` };
        if (side === 'signed-in') return { ...req, path: page, headers: { ...req.headers, cookie: cookies[i % cookies.length]! } };
        return { ...req, path: page };
      },
    }],
  });
  return { rps: r.requests.average, failed: r.non2xx + r.errors };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function main() {
  if (!existsSync(path.join(`${WEB_DIST}-ssr`, 'entry-server.js'))) throw new Error('needs the web build: npm run build -w web');
  console.info(`Page cache keys: ${ROUNDS} rounds x ${SECONDS} s per side, ${CONNECTIONS} connections, ${PRODUCTS} products on ${POSTGRES ? 'PostgreSQL' : 'PGlite'}; load average ${load()}`);
  const scratch = POSTGRES ? await createScratchDatabase(BASE_URL, 'shop_bench_pagecache') : undefined;
  let server: ServerProcess | undefined;
  try {
    const started = await ServerProcess.start({ databaseUrl: scratch?.url, products: PRODUCTS, webDist: WEB_DIST, sessions: 20 });
    server = started.server;
    const cookies = started.accessTokens.map((token) => `${ACCESS_COOKIE}=${token}`);
    const pages: Array<{ name: string; paths: string[] }> = [
      { name: 'home', paths: ['/'] },
      { name: 'search', paths: ['wireless', 'leather wallet', 'ceramic mug', 'tent'].map((w) => `/search?query=${encodeURIComponent(w)}`) },
      { name: 'product', paths: started.slugs.slice(0, 20).map((s) => `/product/${s}`) },
    ];
    const ratios = new Map<string, number[]>();
    let failed = 0;
    for (const page of pages) {
      for (const side of SIDES) await measure(started.port, page.paths, 1, side, cookies); // warm-up: the JIT, the pages in the cache
      for (let round = 0; round < ROUNDS; round++) {
        // Every side once per round, the order rotated each round.
        const order = SIDES.map((_, i) => SIDES[(i + round) % SIDES.length]!);
        const got = {} as Record<Side, number>;
        for (const side of order) {
          const r = await measure(started.port, page.paths, SECONDS, side, cookies);
          got[side] = r.rps;
          failed += r.failed;
        }
        for (const side of ['tagged', 'signed-in'] as const) {
          const key = `${page.name} ${side}`;
          ratios.set(key, [...(ratios.get(key) ?? []), got[side] / got.plain]);
        }
        console.info(`  ${page.name.padEnd(8)} round ${round + 1}: plain ${Math.round(got.plain)}, tagged ${Math.round(got.tagged)}, signed-in ${Math.round(got['signed-in'])} pages/s; `
          + `tagged/plain ${(got.tagged / got.plain).toFixed(2)}, signed-in/plain ${(got['signed-in'] / got.plain).toFixed(2)} (load ${load()})`);
      }
    }
    console.info('\nmedian ratio to the anonymous plain page (goal >= 0.8):');
    for (const [name, list] of ratios) {
      const m = median(list);
      console.info(`  ${name.padEnd(18)} ${m.toFixed(2)} ${m >= 0.8 ? 'met' : 'NOT met'}`);
    }
    if (failed) console.info(`WARNING: ${failed} requests failed`);
    console.info(`load average at the end: ${load()}`);
  } finally {
    await server?.stop();
    await scratch?.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
