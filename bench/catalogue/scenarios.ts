import { ADJECTIVES, CATEGORIES, NOUNS } from './generate.ts';

/** One scenario of the catalogue benchmark: a rotating list of URLs (key: the --scenarios name). */
export interface Scenario { name: string; key: string; target?: string; paths: string[]; headers?: Record<string, string> }

/** A rotating list of URLs per scenario, so caches see realistic variety rather than one URL. */
export function catalogueScenarios(products: number, slugs: string[]): Scenario[] {
  const words = [
    'wireless', 'headphones', 'leather wallet', 'smart watch', 'ceramic mug', 'portable speaker', 'tent', 'blender',
    'organic', 'guitar', 'bamboo desk', 'vintage camera', 'ergonomic chair', 'waterproof jacket', 'drone', 'rechargeable',
    ...ADJECTIVES.slice(0, 8).map((a, i) => `${a.toLowerCase()} ${NOUNS[(i * 7) % NOUNS.length]?.toLowerCase()}`),
  ];
  const text = words.flatMap((w) => [1, 2].map((page) => `/api/products/search?query=${encodeURIComponent(w)}&page=${page}`));
  // Misspelt words, matched one by one through the search_words vocabulary (issue 8).
  const typos = ['wireles hedphones', 'leathr walet', 'smrt watch', 'ceramc mug', 'portble speakr', 'ergonomc chair', 'waterprof jaket', 'vintge camra'];
  const typo = typos.flatMap((w) => [1, 2].map((page) => `/api/products/search?query=${encodeURIComponent(w)}&page=${page}`));
  const filter: string[] = [];
  for (const category of CATEGORIES) {
    for (const price of ['1-50', '51-200', '201-1000']) {
      for (const order of ['lowest', 'highest', 'toprated', 'newest']) {
        filter.push(`/api/products/search?category=${encodeURIComponent(category)}&price=${price}&order=${order}`);
      }
    }
  }
  const lastPage = Math.ceil(products / 12);
  const deepFrom = Math.floor(lastPage * 0.4);
  const deep = Array.from({ length: 200 }, (_, i) => `/api/products/search?page=${deepFrom + i}&order=${i % 2 ? 'newest' : 'lowest'}`);
  const bySlug = slugs.map((s) => `/api/products/slug/${s}`);
  return [
    { name: 'text search', key: 'text', target: 'text', paths: text },
    { name: 'typo search', key: 'typo', paths: typo },
    { name: 'category+price+sort', key: 'filter', target: 'filter', paths: filter },
    { name: `deep page (~${deepFrom})`, key: 'deep', paths: deep },
    { name: 'product by slug', key: 'slug', paths: bySlug },
  ];
}

/**
 * The server-rendered storefront pages (HTML, as a browser asks for them): home, search and product.
 * Needs the web build with its server bundle (web/dist and web/dist-ssr).
 */
export function ssrScenarios(slugs: string[]): Scenario[] {
  const html = { accept: 'text/html' };
  const words = ['wireless', 'leather wallet', 'ceramic mug', 'tent', 'drone', 'guitar'];
  return [
    { name: 'SSR home page', key: 'ssr-home', paths: ['/'], headers: html },
    { name: 'SSR search page', key: 'ssr-search', paths: words.flatMap((w) => [1, 2].map((p) => `/search?query=${encodeURIComponent(w)}&page=${p}`)), headers: html },
    { name: 'SSR product page', key: 'ssr-product', paths: slugs.slice(0, 200).map((slug) => `/product/${slug}`), headers: html },
  ];
}
