import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';

/**
 * The site's absolute origin for canonical URLs: PUBLIC_URL when configured (production should
 * set it), otherwise the origin the request came to.
 */
export function siteOrigin(config: Config, request: FastifyRequest): string {
  if (config.publicUrl) return config.publicUrl;
  return `${request.protocol}://${request.host}`;
}

/** Absolute URL for a path or an already absolute URL. */
export function absoluteUrl(origin: string, pathOrUrl: string): string {
  if (/^https?:\/\//i.test(pathOrUrl)) return pathOrUrl;
  return `${origin}${pathOrUrl.startsWith('/') ? '' : '/'}${pathOrUrl}`;
}
