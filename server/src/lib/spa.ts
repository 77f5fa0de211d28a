import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { HtmlTransform } from './context.ts';

/**
 * Serves the built web app: hashed assets with a one-year immutable cache, index.html for every
 * other GET that accepts HTML (client-side routes), run through the registered HTML transforms.
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
    const url = request.url;
    const wantsHtml = (request.method === 'GET' || request.method === 'HEAD') && (request.headers.accept ?? '').includes('text/html');
    if (url.startsWith('/api/') || url === '/api' || !hasBuild || !wantsHtml || url.startsWith('/assets/')) {
      return reply.status(404).send({ message: `Route ${request.method} ${url.split('?')[0]} not found`, code: 'NOT_FOUND' });
    }
    indexHtml ??= readFileSync(indexFile, 'utf8');
    let html = indexHtml;
    for (const transform of transforms) {
      html = (await transform(request, html)) ?? html;
    }
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
  });
}
