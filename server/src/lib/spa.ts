import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { HtmlTransform } from './context.ts';

/** A request path that can only be a file (has an extension in its last segment): /assets/x.js, /favicon.ico. */
function looksLikeFile(pathname: string): boolean {
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  return last.includes('.');
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
 */
export async function registerSpa(app: FastifyInstance, distDir: string, transforms: HtmlTransform[]) {
  const indexFile = path.join(distDir, 'index.html');
  const hasBuild = existsSync(indexFile);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: distDir,
      prefix: '/',
      wildcard: false,
      index: false,
      // The cache headers are ours (below), not @fastify/static's default max-age=0.
      cacheControl: false,
      setHeaders(res, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        } else {
          res.setHeader('cache-control', 'public, max-age=3600');
        }
      },
    });
  } else {
    app.log.warn({ distDir }, 'web app not built; run `npm run build` to serve the storefront');
  }
  let indexHtml: string | undefined;

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isPage =
      hasBuild &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !(pathname === '/api' || pathname.startsWith('/api/')) &&
      !pathname.startsWith('/assets/') &&
      !looksLikeFile(pathname);
    if (!isPage) {
      return reply.status(404).send({ message: `Route ${request.method} ${pathname} not found`, code: 'NOT_FOUND' });
    }
    indexHtml ??= readFileSync(indexFile, 'utf8');
    let html = indexHtml;
    if (cleanPath(request.url) !== null) {
      for (const transform of transforms) {
        try {
          html = (await transform(request, html)) ?? html;
        } catch (err) {
          request.log.error({ err }, 'page transform failed; serving the page without it');
        }
      }
    }
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
  });
}
