// Mobile Lighthouse over the storefront (/, a product page, /search) against a running shop, plus
// the initial JavaScript size gzipped, computed from the built index.html (entry script and its
// modulepreloads). Prints figures; asserts nothing (targets are in issue 3).
//
//   npm start                                   # or any running shop
//   node --import tsx bench/lighthouse/run.ts [base-url] [web-dist-dir]
//
// base-url defaults to LH_BASE_URL or http://localhost:3000; web-dist-dir to WEB_DIST_DIR or web/dist.
// Lighthouse 12 is used from node_modules when installed, otherwise through `npx --yes lighthouse@12`;
// Chromium is CHROME_PATH, else /usr/bin/chromium. LH_OUT_DIR keeps the JSON reports there.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const root = path.resolve(import.meta.dirname, '../..');
const baseUrl = (process.argv[2] ?? process.env.LH_BASE_URL ?? 'http://localhost:3000').replace(/\/$/, '');
const distDir = path.resolve(process.argv[3] ?? process.env.WEB_DIST_DIR ?? path.join(root, 'web/dist'));
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const TARGETS: Record<string, number> = { performance: 90, accessibility: 95, seo: 95 };
const INITIAL_JS_TARGET_KB = 150;

interface LighthouseReport {
  categories: Record<string, { score: number | null }>;
  audits: Record<string, { numericValue?: number; displayValue?: string; score?: number | null; title?: string }>;
  runtimeError?: { message: string };
}

/** Sum of the gzipped sizes of the scripts the browser must fetch before the app starts. */
function initialJs(dir: string): { files: { file: string; raw: number; gzip: number }[]; totalGzip: number } {
  const html = readFileSync(path.join(dir, 'index.html'), 'utf8');
  const urls = new Set<string>();
  for (const m of html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g)) urls.add(m[1]!);
  for (const m of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)) urls.add(m[1]!);
  const files = [...urls].map((url) => {
    const body = readFileSync(path.join(dir, url.replace(/^\//, '')));
    return { file: url, raw: body.length, gzip: gzipSync(body, { level: 9 }).length };
  });
  return { files, totalGzip: files.reduce((n, f) => n + f.gzip, 0) };
}

function lighthouseCommand(): { cmd: string; args: string[] } {
  const local = path.join(root, 'node_modules/.bin/lighthouse');
  return existsSync(local) ? { cmd: local, args: [] } : { cmd: 'npx', args: ['--yes', 'lighthouse@12'] };
}

function runLighthouse(url: string, outDir: string, name: string): LighthouseReport {
  const out = path.join(outDir, `${name}.json`);
  const { cmd, args } = lighthouseCommand();
  const result = spawnSync(
    cmd,
    [
      ...args,
      url,
      '--output=json',
      `--output-path=${out}`,
      `--only-categories=${CATEGORIES.join(',')}`,
      '--form-factor=mobile',
      '--throttling-method=simulate',
      '--quiet',
      '--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync',
    ],
    { env: { ...process.env, CHROME_PATH: chromePath }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 },
  );
  if (result.status !== 0 || !existsSync(out)) {
    throw new Error(`lighthouse failed for ${url} (exit ${result.status}): ${(result.stderr || result.stdout || String(result.error ?? '')).slice(-2000)}`);
  }
  return JSON.parse(readFileSync(out, 'utf8')) as LighthouseReport;
}

function printTable(rows: Record<string, string | number>[]) {
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const width = (c: string) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? '').length));
  const line = (cells: string[]) => cells.map((v, i) => v.padEnd(width(cols[i]!))).join('  ');
  console.info(line(cols));
  for (const r of rows) console.info(line(cols.map((c) => String(r[c] ?? ''))));
}

async function main() {
  const health = await fetch(`${baseUrl}/api/health`).catch(() => null);
  if (!health?.ok) {
    console.error(`No shop answers at ${baseUrl} (GET /api/health). Start one with \`npm start\`, or pass its URL.`);
    process.exit(1);
  }
  const products = (await (await fetch(`${baseUrl}/api/products`)).json()) as { slug: string }[];
  const pages: [string, string][] = [['home', '/']];
  if (products[0]) pages.push(['product', `/product/${encodeURIComponent(products[0].slug)}`]);
  else console.warn('The catalogue is empty: no product page to measure.');
  pages.push(['search', '/search']);

  console.info(`Lighthouse (mobile, simulated throttling) against ${baseUrl}, Chromium ${chromePath}`);
  const keepDir = process.env.LH_OUT_DIR ? path.resolve(process.env.LH_OUT_DIR) : null;
  if (keepDir) mkdirSync(keepDir, { recursive: true });
  const outDir = keepDir ?? mkdtempSync(path.join(tmpdir(), 'shop-lighthouse-'));
  const rows: Record<string, string | number>[] = [];
  let failed = false;
  try {
    for (const [name, pagePath] of pages) {
      // Lighthouse sometimes fails to record a trace on a busy machine (NO_NAVSTART): try again.
      let report: LighthouseReport | null = null;
      for (let attempt = 1; attempt <= 3 && !report; attempt++) {
        try {
          const r = runLighthouse(`${baseUrl}${pagePath}`, outDir, name);
          if (r.runtimeError && attempt < 3) console.warn(`  ${pagePath}: ${r.runtimeError.message} (retrying)`);
          else report = r;
        } catch (err) {
          if (attempt === 3) throw err;
          console.warn(`  ${pagePath}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)} (retrying)`);
        }
      }
      if (!report) throw new Error(`lighthouse gave no report for ${pagePath}`);
      if (report.runtimeError) console.warn(`${name}: ${report.runtimeError.message}`);
      const row: Record<string, string | number> = { page: pagePath };
      for (const c of CATEGORIES) {
        const score = report.categories[c]?.score;
        row[c] = score === null || score === undefined ? 'n/a' : Math.round(score * 100);
        if (typeof row[c] === 'number' && TARGETS[c] !== undefined && (row[c] as number) < TARGETS[c]) failed = true;
      }
      const metric = (id: string) => report.audits[id]?.displayValue ?? 'n/a';
      Object.assign(row, { FCP: metric('first-contentful-paint'), LCP: metric('largest-contentful-paint'), TBT: metric('total-blocking-time'), CLS: metric('cumulative-layout-shift') });
      rows.push(row);
      const failing = Object.values(report.audits).filter((a) => a.score === 0 && a.title).map((a) => a.title);
      if (failing.length > 0) console.info(`  ${pagePath} failing audits: ${failing.join('; ')}`);
    }
  } finally {
    if (!keepDir) rmSync(outDir, { recursive: true, force: true });
  }
  printTable(rows);

  if (existsSync(path.join(distDir, 'index.html'))) {
    const js = initialJs(distDir);
    for (const f of js.files) console.info(`  ${f.file}: ${(f.raw / 1024).toFixed(1)} KB raw, ${(f.gzip / 1024).toFixed(1)} KB gzipped`);
    const kb = js.totalGzip / 1024;
    console.info(`Initial JS (entry + modulepreloads) from ${distDir}: ${kb.toFixed(1)} KB gzipped (target <= ${INITIAL_JS_TARGET_KB} KB)`);
    if (kb > INITIAL_JS_TARGET_KB) failed = true;
  } else {
    console.warn(`No built web app at ${distDir}: build it (npm run build) or pass its directory to measure the initial JS.`);
  }
  console.info(failed ? 'Some figures miss their targets (performance >= 90, accessibility >= 95, SEO >= 95, JS <= 150 KB).' : 'All figures meet their targets.');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
