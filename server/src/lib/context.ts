import type { FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import type { Database, Db } from '../db/client.ts';
import type { Mailer } from './mailer.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { TokenSigner } from './tokens.ts';

/** Rewrites the SPA's index.html for a request (SEO tags for product pages, ...). Return null to leave it. */
export type HtmlTransform = (request: FastifyRequest, html: string) => Promise<string | null>;

/** What every module can reach: built once in buildApp and decorated onto the instance as `app.ctx`. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  signer: TokenSigner;
  redis: Redis | undefined;
  htmlTransforms: HtmlTransform[];
  /** Work to run when the app closes (timers, sockets). */
  onClose: Array<() => Promise<void> | void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
