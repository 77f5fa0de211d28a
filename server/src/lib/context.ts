import type { FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import type { Database, Db } from '../db/client.ts';
import type { CheckPayPalOrder } from '../modules/orders/release-stock.ts';
import type { CancelSupplierOrder } from '../modules/supplier/cancel-supplier-order.ts';
import type { FreightQuoter } from '../modules/supplier/freight.ts';
import type { UploadStore } from '../modules/uploads/upload-store.ts';
import type { JobRunner } from './jobs.ts';
import type { BackgroundTasks } from './background.ts';
import type { Mailer } from './mailer.ts';
import type { MailSealer } from './mail-seal.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { RedisHealth } from './redis-health.ts';
import type { StorageHealth } from './storage-full.ts';
import type { TokenSigner } from './tokens.ts';
import type { WebBuild } from './web-build.ts';

/** Rewrites the SPA's index.html for a request (SEO tags for product pages, ...). Return null to leave it. */
export type HtmlTransform = (request: FastifyRequest, html: string) => Promise<string | null>;

/** What every module can reach: built once in buildApp and decorated onto the instance as `app.ctx`. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  /** Work that runs after the response (mail lookups behind sign-up and forgot-password). */
  background: BackgroundTasks;
  signer: TokenSigner;
  redis: Redis | undefined;
  /** Whether `redis` is reachable now: callers fall back to this instance's own state while it is not. */
  redisHealth: RedisHealth;
  htmlTransforms: HtmlTransform[];
  /** Durable background jobs of this instance (lib/jobs.ts): modules register their handlers. */
  jobs: JobRunner;
  /** Work to run when the app closes (timers, sockets). */
  onClose: Array<() => Promise<void> | void>;
  /** Uploaded originals: the `uploads` table on PostgreSQL (shared by a fleet), the disk on PGlite. */
  uploads: UploadStore;
  /** Whether the shop's storage is full (DATA_DIR's free space, disk-full errors): /api/ready reports it. */
  storageHealth: StorageHealth;
  /** The web build served (lib/web-build.ts): the link a deploy switches, and the build this instance started with. */
  webBuild: WebBuild;
  /** `draining` turns true when the instance is asked to stop: /api/live (the balancer's check) and /api/ready then answer 503. */
  lifecycle: { draining: boolean };
  /**
   * Run once a stopping instance has waited for the load balancer to stop sending it traffic,
   * before in-flight requests are finished and the server closes: close long-lived connections
   * (chat sockets) with a "reconnect" close code (1012, Service Restart) so clients reconnect to
   * another instance at once.
   */
  onDrain: Array<() => Promise<void> | void>;
  /**
   * Call after anything that may take rights from an account: sign-out, refresh-token reuse, a
   * password change or reset, demotion, deletion. Every instance checks that user's chat sockets
   * against the database again and closes what is no longer allowed (set by the chat module; never
   * throws, does not wait).
   */
  recheckChatSockets: (userId: string) => void;
  /** Seals and opens mail bodies at rest (the outbox table). */
  mailSealer: MailSealer;
  /**
   * CJ's freight quotes for supplier lines (the supplier module sets it). When the shipping settings
   * charge that freight, place-order and the shipping quote use it; unset, the shop's rate applies.
   */
  freight?: FreightQuoter;
  /**
   * Asks PayPal about the PayPal order of an unpaid order due to expire, recording the payment when
   * it was captured (the payments module sets it; the orders module's expiry sweep calls it). Unset,
   * such orders are kept until the grace ends (orders/release-stock.ts).
   */
  checkPayPalOrder?: CheckPayPalOrder;
  /**
   * Withdraws the supplier order of an order being cancelled (the supplier module sets it: CJ's
   * shopping/order/deleteOrder, or the unsent job); the payments module's cancellation calls it.
   */
  cancelSupplierOrder?: CancelSupplierOrder;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
