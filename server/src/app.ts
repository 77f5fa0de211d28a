import { createHash } from 'node:crypto';
import path from 'node:path';
import { APP_START_SCRIPT, EARLY_CLICK_SCRIPT, FIRST_PAINT_SCRIPT } from '@shop/contracts/theme';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { LogController, type FastifyInstance, type FastifyReply } from 'fastify';
import {
  jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { DestinationStream } from 'pino';
import { authPlugin } from './lib/auth.ts';
import { createBackgroundTasks, type BackgroundTasks } from './lib/background.ts';
import type { AppContext } from './lib/context.ts';
import { registerErrorHandling } from './lib/http-errors.ts';
import { registerIdempotency } from './lib/idempotency.ts';
import { createJobRunner, pruneFinishedJobs } from './lib/jobs.ts';
import { registerInputGuard } from './lib/input-guard.ts';
import { loggerOptions, registerRequestLogging } from './lib/logging.ts';
import { createMailer, MAIL_SEND_JOB, registerMailJobs, type Mailer } from './lib/mailer.ts';
import { createMailSealer } from './lib/mail-seal.ts';
import { registerMetrics } from './lib/metrics.ts';
import { registerMultipart } from './lib/multipart.ts';
import { createOpsGuard, type OpsAccess } from './lib/ops-access.ts';
import { registerOriginCheck } from './lib/origin-check.ts';
import { registerPrivateAnswers } from './lib/private-answers.ts';
import { registerSecurityHeaders } from './lib/security-headers.ts';
import { createFailoverRateLimiter, createMemoryRateLimiter, type RateLimiter } from './lib/rate-limit.ts';
import { createRedisClient } from './lib/redis.ts';
import { watchRedis } from './lib/redis-health.ts';
import { registerSpa } from './lib/spa.ts';
import { createStorageHealth, type StorageHealth } from './lib/storage-full.ts';
import { pinWebBuild } from './lib/web-build.ts';
import { pageCacheFor } from './modules/products/catalogue-cache.ts';
import { RESPONSE_TTL_MS, wantsFresh } from './modules/products/cached-response.ts';
import { createTokenSigner } from './lib/tokens.ts';
import { apiModules } from './modules/index.ts';
import { chatSocketRoutes } from './modules/chat/index.ts';
import { LEAD_ACTIVITY_JOB } from './modules/leads/index.ts';
import { refuseMailboxPageToOtherMachines } from './modules/dev-mailbox/dev-mailbox.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { registerDrainHeaders } from './modules/health/shutdown.ts';
import { createUploadStore, type UploadStore } from './modules/uploads/index.ts';
import { withDemoImages } from './db/seed/demo-images.ts';

export interface AppDeps {
  config: Config;
  database: Database;
  mailer?: Mailer;
  rateLimiter?: RateLimiter;
  background?: BackgroundTasks;
  /** false: no logging (most tests). */
  logger?: false | undefined;
  /** Where the log goes (default stdout); tests capture it. */
  logStream?: DestinationStream;
  /** Whether storage is full (default: DATA_DIR's free space and the disk-full errors seen). */
  storageHealth?: StorageHealth;
  /** Where uploaded originals go (default: by the database, createUploadStore); tests inject a failing disk. */
  uploads?: UploadStore;
}

export type App = FastifyInstance;

const JOBS_PRUNE_JOB = 'jobs.prune';

// Routes added by plugins rather than by us: the API docs (@fastify/swagger-ui). Their access is
// decided by API_DOCS_ACCESS (see registerOpsAccess).
const API_DOCS_PREFIX = '/api/docs';

/** Builds the Fastify instance used by main.ts and by every test. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const { config, database } = deps;
  const app = Fastify({
    logger: deps.logger === false ? false : loggerOptions(config.logLevel, deps.logStream, config.logFormat),
    // lib/logging.ts writes one line per request (route pattern, status, request id): Fastify's own
    // lines carry the raw URL with its query string.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Errors the router raises before any hook (a URL that is not valid percent-encoding, ...),
    // in our error shape.
    frameworkErrors: (error, _request, reply) => {
      const malformed = error.code === 'FST_ERR_BAD_URL';
      void (reply as FastifyReply).status(malformed ? 400 : (error.statusCode ?? 400)).send({ message: malformed ? 'Malformed URL' : error.message, code: error.code });
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const redis = config.redisUrl ? createRedisClient(config.redisUrl) : undefined;
  const redisHealth = watchRedis(redis, app.log);
  // Every periodic or queued piece of work runs on this runner: claimed in the database under a
  // lease, so a fleet does each item once (see lib/jobs.ts and README "Deploying").
  const jobRunner = createJobRunner({ db: database.db, log: app.log, pollMs: config.jobsPollMs, leaseMs: config.jobsLeaseMs });
  const mailSealer = createMailSealer(config.dataEncryptionKey);
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    mailer: deps.mailer ?? createMailer({
      db: database.db, smtpUrl: config.smtpUrl, from: config.mailFrom, log: app.log, isProduction: config.isProduction, sealer: mailSealer,
      onQueued: () => jobRunner.kick(),
    }),
    background: deps.background ?? createBackgroundTasks(app.log),
    rateLimiter: deps.rateLimiter ?? (redis ? createFailoverRateLimiter(redis, redisHealth) : createMemoryRateLimiter()),
    signer: createTokenSigner(config.jwtSecret, config.accessTokenTtlSeconds),
    redis,
    redisHealth,
    htmlTransforms: [],
    jobs: jobRunner,
    onClose: [],
    // With the demo seed, the demo catalogue's images are drawn on first request (db/seed/demo-images.ts).
    uploads: deps.uploads ?? (config.seed.demoData ? withDemoImages(createUploadStore(database, config.dataDir)) : createUploadStore(database, config.dataDir)),
    storageHealth: deps.storageHealth ?? createStorageHealth({
      database: database.kind,
      dirs: [
        ...(database.kind === 'pglite' ? [{ label: 'the embedded database', path: path.join(config.dataDir, 'pglite') }] : []),
        { label: 'the data directory', path: config.dataDir },
      ],
    }),
    webBuild: pinWebBuild(config.webDistDir),
    lifecycle: { draining: false },
    onDrain: [],
    recheckChatSockets: () => undefined, // replaced by the chat module
    mailSealer,
  };
  app.decorate('ctx', ctx);
  registerMailJobs(jobRunner, {
    db: database.db, smtpUrl: deps.mailer ? undefined : config.smtpUrl, from: config.mailFrom, sealer: mailSealer, eraseEveryMs: config.cleanupEveryMs,
  });
  // Finished periodic jobs (one row per period), sent-mail jobs and recorded lead interactions (one
  // per add-to-cart) are deleted after a week.
  jobRunner.register(JOBS_PRUNE_JOB, async () => ({
    deleted: await pruneFinishedJobs(database.db, new Date(Date.now() - 7 * 86_400_000), [MAIL_SEND_JOB, LEAD_ACTIVITY_JOB]),
  }));
  jobRunner.schedule(JOBS_PRUNE_JOB, config.cleanupEveryMs);
  app.addHook('onReady', async () => { ctx.jobs.start(); });
  app.addHook('onClose', async () => {
    await ctx.jobs.stop();
    for (const fn of ctx.onClose) await fn();
    await ctx.background.flush();
    // Let SMTP deliveries already under way finish before the database closes.
    await ctx.mailer.flush?.();
    if (redis) await redis.quit().catch(() => undefined);
  });

  registerErrorHandling(app);
  registerDrainHeaders(app);
  registerRequestLogging(app);
  registerOpsAccess(app, ctx);
  await app.register(fastifyCookie);
  await registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // index.html's two inline scripts, by their hashes (contracts/src/theme.ts): the one that runs before
        // the first paint (theme, cookie consent) and the one that starts the app after it.
        scriptSrc: ["'self'", ...[FIRST_PAINT_SCRIPT, EARLY_CLICK_SCRIPT, APP_START_SCRIPT].map((script) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`), 'https://www.paypal.com', 'https://*.paypal.com', 'https://*.paypalobjects.com'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'ws:', 'wss:', 'https://*.paypal.com'],
        frameSrc: ["'self'", 'https://*.paypal.com'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
        upgradeInsecureRequests: config.isProduction ? [] : null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(fastifyCompress, { global: true, threshold: 1024 });
  await registerMultipart(app, { fileSize: config.uploadMaxBytes, files: 1, fields: 10 });
  registerOriginCheck(app, config.publicUrl);
  registerInputGuard(app);

  // Before the API docs, so that their routes are in the route table too (the access matrix test
  // calls every route; registerOpsAccess above gives them their access).
  await app.register(authPlugin, {
    signer: ctx.signer,
    db: ctx.db,
    accessTokenTtlSeconds: config.accessTokenTtlSeconds,
    refreshTokenTtlDays: config.refreshTokenTtlDays,
    cookieSecure: config.cookieSecure,
  });
  // Cache-Control: private, no-store on every answer for one caller, from the route's declared access.
  registerPrivateAnswers(app);
  // Idempotency-Key on the routes that move money (config.idempotent): after auth, before the routes.
  registerIdempotency(app, { db: ctx.db, jobs: jobRunner, purgeEveryMs: config.cleanupEveryMs });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Shop API', version: '1.0.0', description: 'Storefront, back office and checkout API' },
      components: { securitySchemes: { cookieAuth: { type: 'apiKey', in: 'cookie', name: 'access_token' } } },
    },
    transform: jsonSchemaTransform,
  });
  if (config.ops.apiDocs !== 'off') await app.register(fastifySwaggerUi, { routePrefix: API_DOCS_PREFIX });

  if (config.ops.metrics !== 'off') registerMetrics(app);

  await app.register(healthRoutes, { prefix: '/api' });
  for (const mod of apiModules) {
    await app.register(mod, { prefix: '/api' });
  }
  // The chat websocket lives at /ws/chat, outside /api (SPEC §7).
  await app.register(chatSocketRoutes);
  refuseMailboxPageToOtherMachines(app);
  await registerSpa(app, ctx.webBuild, ctx.htmlTransforms, {
    ssrTimeoutMs: config.ssrTimeoutMs,
    // Anonymous pages are micro-cached like the catalogue reads they show, and cleared with them.
    pageCache: pageCacheFor(ctx.db),
    pageTtlMs: RESPONSE_TTL_MS,
    wantsFresh,
  });
  return app;
}

/**
 * /metrics and /api/docs (+ /api/docs/json): 'public' (the default outside production), 'protected'
 * (the default in production: `Authorization: Bearer <METRICS_TOKEN>` or an administrator's
 * session) or 'off' (not served). Applied through onRoute, so it covers the docs routes that
 * @fastify/swagger-ui registers.
 */
function registerOpsAccess(app: App, ctx: AppContext) {
  const guard = createOpsGuard({ token: ctx.config.ops.token, signer: ctx.signer, db: ctx.db });
  app.addHook('onRoute', (route) => {
    let access: OpsAccess | undefined;
    if (route.url === API_DOCS_PREFIX || route.url.startsWith(`${API_DOCS_PREFIX}/`)) access = ctx.config.ops.apiDocs;
    else if (route.url === '/metrics') access = ctx.config.ops.metrics;
    if (!access) return;
    // Behind a token or an administrator's session, its answers are not for a shared cache.
    route.config = { ...route.config, access: 'public', ...(access === 'protected' ? { private: true } : {}) };
    if (access === 'protected') {
      const existing = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
      route.onRequest = [guard, ...existing] as typeof route.onRequest;
    }
  });
}
