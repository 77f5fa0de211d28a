import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { CHAT_ADMIN_REPLY_SECONDS_DEFAULT } from '@shop/contracts/chat-constants';
import type { OpsAccess } from './lib/ops-access.ts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const opsAccess = z.enum(['public', 'protected', 'off']);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  // Unset (or empty): 127.0.0.1 outside production, every interface in production (see loadConfig).
  HOST: z.string().optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'an http(s) address such as https://shop.example.com' }).optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  DATABASE_PREPARED_STATEMENTS: bool.default(true),
  DATABASE_CONNECT_TIMEOUT_SECONDS: z.coerce.number().positive().max(300).default(5),
  DATABASE_QUERY_TIMEOUT_SECONDS: z.coerce.number().min(0).max(3600).default(15),
  REDIS_URL: z.string().optional(),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(15 * 60),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().positive().default(30),
  COOKIE_SECURE: bool.optional(),
  TRUST_PROXY: bool.default(false),
  WEB_DIST_DIR: z.string().optional(),
  SSR_TIMEOUT_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Shop <no-reply@shop.local>'),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  ADMIN_NAME: z.string().default('Admin'),
  CUSTOMER_EMAIL: z.email().optional(),
  CUSTOMER_PASSWORD: z.string().min(8).optional(),
  CUSTOMER_NAME: z.string().default('Jane Customer'),
  SEED_DEMO_DATA: bool.optional(),
  AUTH_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(10),
  AUTH_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(15 * 60),
  PAYPAL_CLIENT_ID: z.string().optional(),
  PAYPAL_CLIENT_SECRET: z.string().optional(),
  PAYPAL_API_BASE: z.url().default('https://api-m.sandbox.paypal.com'),
  ALLOW_DEMO_PAYMENTS: bool.optional(),
  ORDER_EXPIRY_MINUTES: z.coerce.number().positive().default(30),
  CJ_API_KEY: z.string().optional(),
  CJ_API_BASE: z.url().default('https://developers.cjdropshipping.com/api2.0/v1'),
  CJ_REQUESTS_PER_SECOND: z.coerce.number().positive().max(100).default(1),
  CJ_LOGISTIC_NAME: z.string().min(1).default('CJPacket Ordinary'),
  CJ_FROM_COUNTRY_CODE: z.string().regex(/^[A-Z]{2}$/, 'CJ_FROM_COUNTRY_CODE: a two-letter country code').default('CN'),
  SUPPLIER_REFRESH_HOURS: z.coerce.number().min(0).max(24 * 30).default(6),
  CJ_TRACKING_POLL_SECONDS: z.coerce.number().int().min(0).max(7 * 86_400).default(3600),
  CJ_OFFLINE_SHIP_DELAY_SECONDS: z.coerce.number().min(0).max(30 * 86_400).default(600),
  JOBS_POLL_MS: z.coerce.number().int().min(0).max(3_600_000).default(2000),
  JOBS_LEASE_SECONDS: z.coerce.number().min(1).max(86_400).default(120),
  CLEANUP_EVERY_MINUTES: z.coerce.number().min(0.01).max(10_080).default(60),
  LLM_BASE_URL: z.url().optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().default('gpt-4o-mini'),
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(8000),
  CHAT_MAX_MESSAGE_LENGTH: z.coerce.number().int().min(1).max(100_000).default(2000),
  CHAT_MESSAGES_PER_MINUTE: z.coerce.number().int().positive().default(30),
  CHAT_IP_MESSAGES_PER_MINUTE: z.coerce.number().int().positive().default(120),
  CHAT_AI_REQUESTS_PER_MINUTE: z.coerce.number().int().positive().default(20),
  CHAT_SOCKETS_PER_IP: z.coerce.number().int().positive().default(20),
  CHAT_ADMIN_REPLY_SECONDS: z.coerce.number().min(0).max(86_400).default(CHAT_ADMIN_REPLY_SECONDS_DEFAULT),
  UPLOAD_MAX_BYTES: z.coerce.number().int().positive().default(5 * 1024 * 1024),
  // Running as a fleet (issue 14): graceful shutdown behind a balancer, backups.
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(600).default(5),
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(30),
  PG_BIN_DIR: z.string().optional(),
  // Processes per instance (node:cluster workers sharing the port); honoured on PostgreSQL + Redis only.
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  METRICS_ACCESS: opsAccess.optional(),
  API_DOCS_ACCESS: opsAccess.optional(),
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  // Mail bodies at rest are sealed with a key derived from this (JWT_SECRET when unset), issue 21.
  BACKUP_PASSPHRASE: z.string().optional(),
  DATA_ENCRYPTION_KEY: z.string().min(32, 'DATA_ENCRYPTION_KEY must be at least 32 characters').optional(),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  isProduction: boolean;
  /** Where the server listens: HOST, else 127.0.0.1 outside production (this machine only), 0.0.0.0 in production. */
  host: string;
  port: number;
  /** PUBLIC_URL as given (required in production): the allowed Origin of writes and of the chat socket. */
  publicUrl: string | undefined;
  /**
   * The one origin of every absolute link the shop writes (e-mails, canonical and og:url, sitemap,
   * robots.txt): PUBLIC_URL, else http://localhost:PORT outside production. Never a request's Host.
   */
  siteUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /** Parameterised queries run as per-connection prepared statements (PostgreSQL). */
  databasePreparedStatements: boolean;
  /** A new database connection that takes longer fails (the request answers 503): DATABASE_CONNECT_TIMEOUT_SECONDS. */
  databaseConnectTimeoutSeconds: number;
  /**
   * A query of the request-serving pool that takes longer (running, waiting for a lock, or on a
   * connection gone silent) fails and the request answers 503: DATABASE_QUERY_TIMEOUT_SECONDS; 0 = none.
   */
  databaseQueryTimeoutSeconds: number;
  redisUrl: string | undefined;
  jwtSecret: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  cookieSecure: boolean;
  trustProxy: boolean;
  webDistDir: string;
  /** Server rendering of a page that takes longer is abandoned (the plain shell is sent): SSR_TIMEOUT_MS; 0 turns server rendering off. */
  ssrTimeoutMs: number;
  logLevel: Env['LOG_LEVEL'];
  /** 'pretty': readable coloured lines (pino-pretty); 'json': one JSON object a line. From LOG_FORMAT (auto: pretty on a terminal outside production). */
  logFormat: 'json' | 'pretty';
  smtpUrl: string | undefined;
  mailFrom: string;
  seed: {
    /**
     * SEED_DEMO_DATA (default: on outside production, off in production): the demo catalogue, sales,
     * leads and chats, and the demo accounts, go into an empty database. A shop in production starts
     * with no invented products, orders or people; only its administrator (ADMIN_EMAIL) is created.
     */
    demoData: boolean;
    admin: { name: string; email: string; password: string } | undefined;
    customer: { name: string; email: string; password: string } | undefined;
  };
  authRateLimit: { max: number; windowSeconds: number };
  paypal: { clientId: string | undefined; clientSecret: string | undefined; apiBase: string };
  allowDemoPayments: boolean;
  orderExpiryMinutes: number;
  cj: {
    apiKey: string | undefined;
    apiBase: string;
    requestsPerSecond: number;
    logisticName: string;
    fromCountryCode: string;
    /** Saved supplier products are refreshed (cost, stock, still sold) this often; 0 = never. */
    refreshHours: number;
    /** Forwarded orders not yet delivered are asked about (getOrderDetail) this often; 0 = never. */
    trackingPollSeconds: number;
    /** The offline catalogue gives a forwarded order a tracking number this long after it was sent. */
    offlineShipDelaySeconds: number;
  };
  /** How often each instance looks for due background jobs; 0 = never (tests run them by hand). */
  jobsPollMs: number;
  /** How long an instance's claim on a job lasts; a job claimed by an instance that died runs again after it. */
  jobsLeaseMs: number;
  /** Expired sessions, refresh tokens, reset and sign-up links (and finished periodic jobs) are deleted this often. */
  cleanupEveryMs: number;
  llm: { baseUrl: string | undefined; apiKey: string | undefined; model: string; timeoutMs: number };
  /** Chat limits: message length, messages per minute per sender and per IP, AI answers per minute, sockets per IP. */
  chat: { maxMessageLength: number; messagesPerMinute: number; ipMessagesPerMinute: number; aiRequestsPerMinute: number; socketsPerIp: number; adminReplySeconds: number };
  uploadMaxBytes: number;
  /** SIGTERM: seconds /api/live and /api/ready answer 503 before the server closes; then at most timeoutSeconds to finish. */
  shutdown: { drainSeconds: number; timeoutSeconds: number };
  /** Directory of pg_dump/pg_restore for backups (unset: found on PATH). */
  pgBinDir: string | undefined;
  /** Worker processes asked for (WEB_CONCURRENCY); see cluster.ts for when it is honoured. */
  webConcurrency: number;
  /** /metrics and /api/docs: public, protected (METRICS_TOKEN bearer or an admin session) or off. */
  ops: { metrics: OpsAccess; apiDocs: OpsAccess; token: string | undefined };
  /** The secret mail bodies at rest are sealed under (DATA_ENCRYPTION_KEY, else JWT_SECRET): never in the database. */
  dataEncryptionKey: string;
  /** Passphrase of encrypted backups (npm run backup -- --encrypt, restore). */
  backupPassphrase: string | undefined;
  /** The development mailbox (/dev/mailbox): outside production, without SMTP_URL. */
  devMailbox: boolean;
}

export const DEMO_ADMIN = { name: 'Admin', email: 'admin@example.com', password: 'admin1234' } as const;
export const DEMO_CUSTOMER = { name: 'Jane Customer', email: 'jane@example.com', password: 'jane1234' } as const;

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

/** Reads the JWT secret persisted in the data dir, creating it on first use (non-production only). */
function loadOrCreateDevSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** Parses the environment once. The only reader of process.env in the server. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === 'production';
  const problems: string[] = [];
  if (isProduction) {
    if (!e.JWT_SECRET) problems.push('JWT_SECRET: required in production');
    // The first administrator comes from these two alone in production (no demo accounts there).
    if (Boolean(e.ADMIN_EMAIL) !== Boolean(e.ADMIN_PASSWORD)) {
      problems.push('ADMIN_EMAIL and ADMIN_PASSWORD: set both to create the administrator');
    }
    // Links in e-mails (password reset) must not be built from a Host header an attacker can set.
    if (!e.PUBLIC_URL) problems.push('PUBLIC_URL: required in production (links in e-mails, allowed Origin)');
    if (e.PAYPAL_CLIENT_ID && !e.PAYPAL_CLIENT_SECRET) problems.push('PAYPAL_CLIENT_SECRET: required when PAYPAL_CLIENT_ID is set');
  }
  if (problems.length) throw new ConfigError(problems);

  const dataDir = path.resolve(e.DATA_DIR);
  const jwtSecret = e.JWT_SECRET ?? loadOrCreateDevSecret(dataDir);
  const admin = e.ADMIN_EMAIL && e.ADMIN_PASSWORD
    ? { name: e.ADMIN_NAME, email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD }
    : isProduction ? undefined : { ...DEMO_ADMIN };
  const customer = e.CUSTOMER_EMAIL && e.CUSTOMER_PASSWORD
    ? { name: e.CUSTOMER_NAME, email: e.CUSTOMER_EMAIL, password: e.CUSTOMER_PASSWORD }
    : isProduction ? undefined : { ...DEMO_CUSTOMER };

  return {
    env: e.NODE_ENV,
    isProduction,
    host: e.HOST || (isProduction ? '0.0.0.0' : '127.0.0.1'),
    port: e.PORT,
    publicUrl: e.PUBLIC_URL?.replace(/\/$/, ''),
    siteUrl: e.PUBLIC_URL?.replace(/\/$/, '') ?? `http://localhost:${e.PORT}`,
    dataDir,
    databaseUrl: e.DATABASE_URL || undefined,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databasePreparedStatements: e.DATABASE_PREPARED_STATEMENTS,
    databaseConnectTimeoutSeconds: e.DATABASE_CONNECT_TIMEOUT_SECONDS,
    databaseQueryTimeoutSeconds: e.DATABASE_QUERY_TIMEOUT_SECONDS,
    redisUrl: e.REDIS_URL || undefined,
    jwtSecret,
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlDays: e.REFRESH_TOKEN_TTL_DAYS,
    cookieSecure: e.COOKIE_SECURE ?? isProduction,
    trustProxy: e.TRUST_PROXY,
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? path.join(import.meta.dirname, '../../web/dist')),
    ssrTimeoutMs: e.SSR_TIMEOUT_MS,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT === 'auto' ? (!isProduction && process.stdout.isTTY ? 'pretty' : 'json') : e.LOG_FORMAT,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    seed: { demoData: e.SEED_DEMO_DATA ?? !isProduction, admin, customer },
    authRateLimit: { max: e.AUTH_RATE_LIMIT_MAX, windowSeconds: e.AUTH_RATE_LIMIT_WINDOW_SECONDS },
    paypal: { clientId: e.PAYPAL_CLIENT_ID, clientSecret: e.PAYPAL_CLIENT_SECRET, apiBase: e.PAYPAL_API_BASE.replace(/\/$/, '') },
    allowDemoPayments: e.ALLOW_DEMO_PAYMENTS ?? !isProduction,
    orderExpiryMinutes: e.ORDER_EXPIRY_MINUTES,
    cj: {
      apiKey: e.CJ_API_KEY || undefined,
      apiBase: e.CJ_API_BASE.replace(/\/$/, ''),
      requestsPerSecond: e.CJ_REQUESTS_PER_SECOND,
      logisticName: e.CJ_LOGISTIC_NAME,
      fromCountryCode: e.CJ_FROM_COUNTRY_CODE,
      refreshHours: e.SUPPLIER_REFRESH_HOURS,
      trackingPollSeconds: e.CJ_TRACKING_POLL_SECONDS,
      offlineShipDelaySeconds: e.CJ_OFFLINE_SHIP_DELAY_SECONDS,
    },
    jobsPollMs: e.JOBS_POLL_MS,
    jobsLeaseMs: Math.round(e.JOBS_LEASE_SECONDS * 1000),
    cleanupEveryMs: Math.round(e.CLEANUP_EVERY_MINUTES * 60_000),
    llm: { baseUrl: e.LLM_BASE_URL?.replace(/\/$/, ''), apiKey: e.LLM_API_KEY, model: e.LLM_MODEL, timeoutMs: e.LLM_TIMEOUT_MS },
    chat: {
      maxMessageLength: e.CHAT_MAX_MESSAGE_LENGTH,
      messagesPerMinute: e.CHAT_MESSAGES_PER_MINUTE,
      ipMessagesPerMinute: e.CHAT_IP_MESSAGES_PER_MINUTE,
      aiRequestsPerMinute: e.CHAT_AI_REQUESTS_PER_MINUTE,
      socketsPerIp: e.CHAT_SOCKETS_PER_IP,
      adminReplySeconds: e.CHAT_ADMIN_REPLY_SECONDS,
    },
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    shutdown: { drainSeconds: e.SHUTDOWN_DRAIN_SECONDS, timeoutSeconds: e.SHUTDOWN_TIMEOUT_SECONDS },
    pgBinDir: e.PG_BIN_DIR || undefined,
    webConcurrency: e.WEB_CONCURRENCY,
    ops: {
      metrics: e.METRICS_ACCESS ?? (isProduction ? 'protected' : 'public'),
      apiDocs: e.API_DOCS_ACCESS ?? (isProduction ? 'protected' : 'public'),
      token: e.METRICS_TOKEN || undefined,
    },
    dataEncryptionKey: e.DATA_ENCRYPTION_KEY ?? jwtSecret,
    backupPassphrase: e.BACKUP_PASSPHRASE || undefined,
    devMailbox: !isProduction && !e.SMTP_URL,
  };
}
