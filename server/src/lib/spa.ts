import { existsSync, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { acceptsGzip } from './compression.ts';
import type { HtmlTransform } from './context.ts';
import { isSharedPage, pageUrl } from './page-url.ts';
import { PRIVATE_NO_STORE } from './private-answers.ts';
import { fillTemplate, hasSessionCookie, isAnonymous, loadPageRenderer, themeOf, type RenderedPage } from './ssr.ts';
import type { WebBuild } from './web-build.ts';

/** The shared cache the anonymous pages are micro-cached in (the catalogue's: product writes clear it). */
export interface PageCache {
  remember<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T>;
}

export interface SpaOptions {
  /** Server rendering of a page that takes longer is abandoned (the shell is sent); 0: no server rendering. */
  ssrTimeoutMs: number;
  /** Where anonymous visitors' rendered pages are kept for `pageTtlMs`. */
  pageCache: PageCache;
  pageTtlMs: number;
  /** Whether the request asks for a fresh answer (Cache-Control: no-cache), skipping the cache. */
  wantsFresh: (request: FastifyRequest) => boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set while the HTML transforms run for a page rendered on the server (its public data is in the page). */
    serverRendered: boolean;
    /** Set with serverRendered when the page was rendered for the signed-in visitor (users/current is in it). */
    renderedForViewer: boolean;
  }
}

/** A page as sent: its status and HTML, and the HTML gzipped once it was asked for (kept with a cached page). */
interface Page {
  status: number;
  html: string;
  gzip?: Buffer;
}

/**
 * Gzip level of the pages: a server-rendered page (~90 KB) becomes ~10 KB in ~0.35 ms, against ~9.6 KB
 * in ~1.2 ms at level 6. The not-found handler is not a route, so @fastify/compress does not see it.
 */
const PAGE_GZIP_LEVEL = 4;
const PAGE_GZIP_THRESHOLD = 1024;

/** Longer URLs (a huge query string) get the plain shell: no real page has one. */
const MAX_RENDERED_URL = 2048;

/** A request path that can only be a file (has an extension in its last segment): /assets/x.js, /favicon.ico. */
function looksLikeFile(pathname: string): boolean {
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  return last.includes('.');
}

/**
 * A file's path relative to the build (`assets/x.js`, `favicon.svg`) from a decoded URL path, or
 * null when it could reach outside it or names a hidden file (`..`, `.`, empty segments, dotfiles
 * such as .vite/manifest.json, backslashes, control characters): those are 404.
 */
function buildFilePath(decoded: string): string | null {
  const segments = decoded.replace(/^\//, '').split('/');
  // eslint-disable-next-line no-control-regex
  if (segments.some((s) => s === '' || s.startsWith('.') || s.includes('\\') || /[\u0000-\u001f\u007f]/.test(s))) return null;
  return segments.join('/');
}

/** The decoded URL, or null when it cannot be decoded or holds control characters (NUL, ...). */
function cleanPath(url: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(url);
  } catch {
    return null;
  }
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f]/.test(decoded) ? null : decoded;
}

/**
 * Serves the built web app: hashed assets with a one-year immutable cache, and index.html for every
 * other GET or HEAD that is not an API call and not a file, whatever its Accept header (curl, uptime
 * monitors and some crawlers send none). Unknown /api/... routes and missing files stay 404 JSON.
 * The page goes through the registered HTML transforms (SEO tags, preloads) unless its path is
 * undecodable or holds control characters, which no real page has: such a URL gets the plain page,
 * and the app shows its not-found state. A transform that fails is skipped, never a 500.
 *
 * Files are looked up when asked for (lib/web-build.ts): in the served build (the link a deploy
 * switches), then in the build this instance started with, so a file that appeared after the start
 * is served. /assets/* is a route (compressed like any answer); other files (favicon.svg, ...) are
 * looked up from the not-found handler. index.html, the manifest and the server-rendering bundle
 * are the started build's, read once.
 *
 * With the web build's server-rendering bundle (lib/ssr.ts), the page is rendered on the server
 * too: its markup and data go into the root element (404 for no page of the app). If rendering fails
 * or takes longer than `ssrTimeoutMs`, the plain page is sent as before (200). A visitor with no
 * cookie but the theme's gets the page from a micro-cache (per URL and theme, for
 * `pageTtlMs`, cleared by product writes with the catalogue); so does everyone on the pages that are
 * the same for everyone (lib/page-url.ts isSharedPage: one copy with a session cookie, one without).
 * Any other page for a request with any other cookie (a session) is rendered for itself and never cached.
 */
export async function registerSpa(app: FastifyInstance, build: WebBuild, transforms: HtmlTransform[], options: SpaOptions) {
  const indexFile = path.join(build.own, 'index.html');
  const hasBuild = existsSync(indexFile);
  const roots = [...new Set([build.served, build.own])];
  const assetDirs = roots.map((root) => path.join(root, 'assets') + path.sep);
  /** The first root holding `file` as a regular file. */
  const firstRootWith = async (file: string): Promise<string | undefined> => {
    for (const root of roots) {
      if (await stat(path.join(root, file)).then((s) => s.isFile(), () => false)) return root;
    }
    return undefined;
  };
  if (hasBuild) {
    // reply.sendFile only: the lookups are ours (below). Each file is found when asked for, in the
    // first root that has it.
    await app.register(fastifyStatic, {
      root: roots,
      serve: false,
      index: false,
      dotfiles: 'ignore',
      // The cache headers are ours, not @fastify/static's default max-age=0.
      cacheControl: false,
      setHeaders(res, filePath) {
        const immutable = assetDirs.some((dir) => filePath.startsWith(dir));
        res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
      },
    });
    app.get('/assets/*', {
      config: { access: 'public' },
      schema: { hide: true },
      // A client that goes away while a file streams: nothing to answer (as @fastify/static's own routes do).
      errorHandler(error, request, reply) {
        if ((error as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE') {
          request.raw.destroy();
          return;
        }
        return app.errorHandler(error, request, reply);
      },
    }, (request, reply) => {
      const file = buildFilePath(`assets/${(request.params as { '*': string })['*']}`);
      // Missing (or not a build file): the not-found handler answers 404.
      return file ? reply.sendFile(file) : reply.callNotFound();
    });
  } else {
    app.log.warn({ distDir: build.served }, 'web app not built; run `npm run build` to serve the storefront');
  }
  const indexHtml = hasBuild ? readFileSync(indexFile, 'utf8') : '';
  const renderer = hasBuild ? await loadPageRenderer(app, build.ssrBase, options.ssrTimeoutMs) : null;
  app.decorateRequest('serverRendered', false);
  app.decorateRequest('renderedForViewer', false);

  /** index.html through the transforms (SEO tags, preloads). */
  async function transformed(request: FastifyRequest, clean: boolean): Promise<string> {
    let html = indexHtml;
    if (!clean) return html;
    for (const transform of transforms) {
      try {
        html = (await transform(request, html)) ?? html;
      } catch (err) {
        request.log.error({ err }, 'page transform failed; serving the page without it');
      }
    }
    return html;
  }

  /** The server-rendered page, or null when it cannot be (the caller sends the plain one). */
  async function rendered(request: FastifyRequest): Promise<Page | null> {
    if (!renderer || request.url.length > MAX_RENDERED_URL) return null;
    const fresh = options.wantsFresh(request);
    // The page without the parameters it does not read (utm_*, fbclid, ...), the ones it reads in order:
    // what is rendered, and the shared cache's key, so no added parameter makes another render.
    const url = pageUrl(request.url);
    // One page for everyone (home, search, products, information pages): rendered for no one, whoever
    // asks, and shared; the header's name and cart badge come from the browser's session state. The
    // page says only whether a session cookie came with the request (then the browser asks who it is
    // and shows no Sign In meanwhile), so there are two copies: with and without one.
    const shared = isSharedPage(url.split('?')[0]!);
    const session = hasSessionCookie(request);
    const build = async (): Promise<Page> => {
      let page: RenderedPage;
      try {
        page = await renderer.render(request, fresh, url, shared);
      } catch (err) {
        request.log.error({ err, url: request.url }, 'server rendering failed; serving the client-rendered page');
        throw err;
      }
      // The transforms know the page's public data is in it (no preloads of it).
      request.serverRendered = true;
      request.renderedForViewer = page.forViewer;
      const html = fillTemplate(await transformed(request, true), page);
      if (html === null) throw new Error('index.html has no <div id="root"></div>');
      return { status: page.status, html };
    };
    try {
      if (fresh || !(shared || isAnonymous(request))) return await build();
      // Not by Host: no page depends on it (every absolute link is on config.siteUrl), so a forged Host
      // can neither get a page of its own nor fill the cache with copies. Not by method: HEAD is GET's page.
      // Concurrent misses share one render; an expired page is answered while one render refreshes it.
      const key = `page\u0000${themeOf(request)}\u0000${session ? 'session' : 'none'}\u0000${url}`;
      return await options.pageCache.remember(key, options.pageTtlMs, build);
    } catch {
      request.serverRendered = false;
      request.renderedForViewer = false;
      return null;
    }
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    // A file of the build other than /assets/* (favicon.svg, ...), found in the first root that has
    // it (a file removed in the instant between that look and the read gets Fastify's plain 404).
    if (
      hasBuild && (request.method === 'GET' || request.method === 'HEAD') && looksLikeFile(pathname) &&
      !(pathname === '/api' || pathname.startsWith('/api/')) && !pathname.startsWith('/assets/')
    ) {
      const decoded = cleanPath(pathname);
      const file = decoded === null ? null : buildFilePath(decoded);
      const root = file === null ? undefined : await firstRootWith(file);
      if (root) return reply.sendFile(file!, root);
    }
    const isPage =
      hasBuild &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !(pathname === '/api' || pathname.startsWith('/api/')) &&
      !pathname.startsWith('/assets/') &&
      !looksLikeFile(pathname);
    if (!isPage) {
      return reply.status(404).send({ message: `Route ${request.method} ${pathname} not found`, code: 'NOT_FOUND' });
    }
    const clean = cleanPath(request.url) !== null;
    const page = (clean ? await rendered(request) : null) ?? { status: 200, html: await transformed(request, clean) };
    void reply
      .status(page.status)
      // A page rendered for a signed-in visitor holds who they are and their cart: theirs alone, kept
      // by no cache (as every personal answer, lib/private-answers.ts); so is every answer to a request
      // with a session cookie (issue 32), shared page or not. Any other request with a cookie is not
      // shared by caches outside either; and the page depends on the cookies (theme, session).
      .header('cache-control', request.renderedForViewer || hasSessionCookie(request) ? PRIVATE_NO_STORE : isAnonymous(request) ? 'no-cache' : 'private, no-cache')
      .header('vary', 'accept-encoding, cookie')
      .type('text/html; charset=utf-8');
    if (page.html.length < PAGE_GZIP_THRESHOLD || !acceptsGzip(request)) return reply.send(page.html);
    // Once per cached page: the micro-cache hands the same object to every visitor it serves.
    page.gzip ??= gzipSync(page.html, { level: PAGE_GZIP_LEVEL });
    return reply.header('content-encoding', 'gzip').send(page.gzip);
  });
}
