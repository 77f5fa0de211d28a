import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyMultipart from '@fastify/multipart';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { authPlugin } from './lib/auth.ts';
import type { AppContext } from './lib/context.ts';
import { registerErrorHandling } from './lib/http-errors.ts';
import { createMailer, type Mailer } from './lib/mailer.ts';
import { registerMetrics } from './lib/metrics.ts';
import { registerOriginCheck } from './lib/origin-check.ts';
import { createMemoryRateLimiter, createRedisRateLimiter, type RateLimiter } from './lib/rate-limit.ts';
import { registerSpa } from './lib/spa.ts';
import { createTokenSigner } from './lib/tokens.ts';
import { apiModules } from './modules/index.ts';
import { healthRoutes } from './modules/health/health.routes.ts';

export interface AppDeps {
  config: Config;
  database: Database;
  mailer?: Mailer;
  rateLimiter?: RateLimiter;
  /** Pino logger options; tests pass false. */
  logger?: boolean | object;
}

export type App = FastifyInstance;

// Routes added by plugins rather than by us; they are public by nature.
const PLUGIN_PUBLIC_PREFIXES = ['/api/docs'];

/** Builds the Fastify instance used by main.ts and by every test. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const { config, database } = deps;
  const app = Fastify({
    logger: deps.logger ?? { level: config.logLevel, redact: ['req.headers.cookie', 'req.headers.authorization'] },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.addHook('onRoute', (route) => {
    if (!route.config?.access && PLUGIN_PUBLIC_PREFIXES.some((p) => route.url.startsWith(p))) {
      route.config = { ...route.config, access: 'public' };
    }
  });

  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, lazyConnect: false }) : undefined;
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    mailer: deps.mailer ?? createMailer({ db: database.db, smtpUrl: config.smtpUrl, from: config.mailFrom, log: app.log }),
    rateLimiter: deps.rateLimiter ?? (redis ? createRedisRateLimiter(redis) : createMemoryRateLimiter()),
    signer: createTokenSigner(config.jwtSecret, config.accessTokenTtlSeconds),
    redis,
    htmlTransforms: [],
    onClose: [],
  };
  app.decorate('ctx', ctx);
  app.addHook('onClose', async () => {
    for (const fn of ctx.onClose) await fn();
    // Let SMTP deliveries already under way finish before the database closes.
    await ctx.mailer.flush?.();
    if (redis) await redis.quit().catch(() => undefined);
  });

  registerErrorHandling(app);
  await app.register(fastifyCookie);
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", 'https://www.paypal.com', 'https://*.paypal.com', 'https://*.paypalobjects.com'],
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
  await app.register(fastifyMultipart, { limits: { fileSize: config.uploadMaxBytes, files: 1, fields: 10 } });
  registerOriginCheck(app, config.publicUrl);

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Shop API', version: '1.0.0', description: 'Storefront, back office and checkout API' },
      components: { securitySchemes: { cookieAuth: { type: 'apiKey', in: 'cookie', name: 'access_token' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  await app.register(authPlugin, {
    signer: ctx.signer,
    db: ctx.db,
    accessTokenTtlSeconds: config.accessTokenTtlSeconds,
    refreshTokenTtlDays: config.refreshTokenTtlDays,
    cookieSecure: config.cookieSecure,
  });
  registerMetrics(app);

  await app.register(healthRoutes, { prefix: '/api' });
  for (const mod of apiModules) {
    await app.register(mod, { prefix: '/api' });
  }
  await registerSpa(app, config.webDistDir, ctx.htmlTransforms);
  return app;
}
