/**
 * The rendering part of a server-rendered page alone, two (or more) builds of the SSR bundle side by
 * side in one process: each round renders every page with every bundle in turn (A, B, A, B, ...), so
 * a machine that slows down or speeds up during the run weighs on all of them alike. The page data
 * comes from a running shop once, then from memory: what is timed is `render()` of
 * web/src/entry-server.tsx (data into the query cache, React to HTML, the page data as JSON).
 *
 *   npm start                                       # or any running shop, for the data
 *   node --import tsx bench/ssr/render-ab.ts [--base=http://127.0.0.1:3000] [--rounds=300]
 *        [--pages=/,/search?query=lamp,/product/<slug>] before=/path/to/dist-ssr after=web/dist-ssr
 *
 * Prints per page and bundle the median and p90 of the CPU time of one render (process.cpuUsage),
 * and the markup's size. A label=dir pair names each bundle (the directory holding entry-server.js).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface Entry {
  render(request: { url: string; mode: 'light' | 'dark'; fetch: (url: string, init: RequestInit) => Promise<Response>; timeoutMs: number }): Promise<{ status: number; appHtml: string; data: string }>;
}

const flag = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const base = (flag('base') ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
const rounds = Number(flag('rounds') ?? 300);
const bundles = process.argv.slice(2).filter((a) => !a.startsWith('--') && a.includes('=')).map((a) => {
  const [label, dir] = a.split('=') as [string, string];
  return { label, dir: path.resolve(dir) };
});
if (bundles.length === 0) {
  console.error('usage: render-ab.ts [--base=URL] [--rounds=N] [--pages=a,b] label=dist-ssr-dir [label=dir ...]');
  process.exit(2);
}

async function firstProductSlug(): Promise<string> {
  const res = await fetch(`${base}/api/products`, { signal: AbortSignal.timeout(10_000) });
  const list = (await res.json()) as { slug: string; cjData?: unknown }[];
  const own = list.find((p) => !p.cjData) ?? list[0];
  if (!own) throw new Error('the shop has no products');
  return own.slug;
}

const pages = flag('pages')?.split(',') ?? ['/', '/search?query=lamp', `/product/${await firstProductSlug()}`];

// Every API answer the pages need, read once from the shop and then served from memory.
const answers = new Map<string, { status: number; body: string; type: string }>();
const memoryFetch = async (url: string): Promise<Response> => {
  let answer = answers.get(url);
  if (!answer) {
    const res = await fetch(`${base}${url}`, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(10_000) });
    answer = { status: res.status, body: await res.text(), type: res.headers.get('content-type') ?? 'application/json' };
    answers.set(url, answer);
  }
  return new Response(answer.status === 204 ? null : answer.body, { status: answer.status, headers: { 'content-type': answer.type } });
};

const entries = await Promise.all(bundles.map(async (b) => ({ ...b, entry: (await import(pathToFileURL(path.join(b.dir, 'entry-server.js')).href)) as Entry })));
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const samples = new Map<string, number[]>();
const sizes = new Map<string, number>();
const key = (page: string, label: string) => `${page}\u0000${label}`;

for (let round = 0; round < rounds + 20; round++) {
  for (const page of pages) {
    for (const { label, entry } of entries) {
      const started = cpuMs();
      const result = await entry.render({ url: page, mode: 'light', fetch: memoryFetch, timeoutMs: 10_000 });
      const took = cpuMs() - started;
      if (round < 20) continue; // warm-up: the JIT and the data in memory
      sizes.set(key(page, label), result.appHtml.length);
      const list = samples.get(key(page, label)) ?? [];
      list.push(took);
      samples.set(key(page, label), list);
    }
  }
}

const pct = (list: number[], p: number) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
};
console.info(`render() CPU per page, ${rounds} rounds after 20 of warm-up, bundles interleaved; data from ${base}`);
console.info(`${'page'.padEnd(36)} ${'bundle'.padEnd(10)} ${'median ms'.padStart(10)} ${'p90 ms'.padStart(8)} ${'markup KB'.padStart(10)}`);
for (const page of pages) {
  for (const { label } of entries) {
    const list = samples.get(key(page, label)) ?? [];
    console.info(`${page.slice(0, 36).padEnd(36)} ${label.padEnd(10)} ${pct(list, 0.5).toFixed(3).padStart(10)} ${pct(list, 0.9).toFixed(3).padStart(8)} ${((sizes.get(key(page, label)) ?? 0) / 1024).toFixed(1).padStart(10)}`);
  }
}
