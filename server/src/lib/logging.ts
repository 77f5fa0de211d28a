import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DestinationStream, LoggerOptions } from 'pino';
import pinoPretty from 'pino-pretty';

/*
 * What the logs may carry: method, route pattern, status, request id, timings, error types and
 * codes. Never bodies, query strings, e-mail addresses, password hashes, tokens or links. Database
 * errors are the dangerous ones: drizzle's query error puts the SQL parameters (an e-mail, an
 * argon2 hash) in its message and in a `params` field, and PostgreSQL's `detail` repeats key values.
 */

const SECRET_PATTERNS: Array<[RegExp, string]> = [
  [/\$argon2[a-z]*\$[^\s"',)]*/gi, '[hash]'],
  [/\beyJ[\w-]+\.[\w-]+\.[\w-]+/g, '[token]'],
  [/[\w.!#$%&'*+=?^`{|}~-]+@[\w-]+(?:\.[\w-]+)+/g, '[email]'],
  [/\b[a-f0-9]{32,}\b/gi, '[token]'],
  [/(?<![\w/.-])[\w-]{40,}(?![\w/.-])/g, '[token]'],
  [/([?&](?:token|code|email|password|key|secret)=)[^&\s"']*/gi, '$1[redacted]'],
];

/** Replaces e-mail addresses, hashes and token-like strings in a text meant for a log. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

const MAX_TEXT = 2000;
const clip = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}...` : text);

/** drizzle: "Failed query: <sql>\nparams: <values>"; keep the SQL (placeholders only), drop the values. */
function withoutParams(message: string): string {
  const at = message.search(/\n\s*params:/);
  return at === -1 ? message : message.slice(0, at);
}

// PostgreSQL error fields that name things rather than carry values (no `detail`, `where`, `hint`).
const PG_FIELDS = ['severity', 'constraint', 'table', 'column', 'schema', 'dataType', 'routine'] as const;

/** pino serializer for `err`: type, safe message, stack frames, codes, and the same for its causes. */
export function serializeError(err: unknown, depth = 0): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: clip(redactSecrets(String(err))) };
  const e = err as Error & Record<string, unknown>;
  const type = e.constructor?.name && e.constructor.name !== 'Object' ? e.constructor.name : e.name;
  const message = clip(redactSecrets(withoutParams(String(e.message ?? ''))));
  const frames = (e.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line)).slice(0, 15);
  const out: Record<string, unknown> = { type, message, stack: [`${type}: ${message}`, ...frames].join('\n') };
  if (typeof e.code === 'string' || typeof e.code === 'number') out.code = e.code;
  if (typeof e.statusCode === 'number') out.statusCode = e.statusCode;
  for (const field of PG_FIELDS) if (typeof e[field] === 'string') out[field] = e[field];
  if (typeof e.query === 'string') out.query = clip(e.query);
  if (e.cause !== undefined && depth < 3) out.cause = serializeError(e.cause, depth + 1);
  return out;
}

/** The route a request matched (its pattern, e.g. /api/products/:id), never the raw URL. */
export function routeOf(request: FastifyRequest): string | undefined {
  return request.routeOptions?.url;
}

/** An unmatched request's path (SPA pages, 404s): no query string, secrets redacted, clipped. */
function pathOf(request: FastifyRequest): string {
  const raw = (request.raw.url ?? request.url).split('?')[0] ?? '';
  let path = raw;
  try {
    path = decodeURIComponent(raw);
  } catch {
    /* keep it encoded */
  }
  path = JSON.stringify(path).slice(1, -1); // control characters escaped
  return redactSecrets(path.length > 200 ? `${path.slice(0, 200)}...` : path);
}

export function serializeRequest(request: FastifyRequest) {
  const route = routeOf(request);
  return { method: request.method, ...(route ? { route } : { path: pathOf(request) }), id: request.id };
}

export function serializeReply(reply: FastifyReply) {
  return { statusCode: reply.statusCode };
}

/**
 * Readable lines for a person at a terminal: time, level, message, then the fields
 * (`LOG_FORMAT=pretty`, or a TTY outside production). Written synchronously, in order, to stdout.
 */
export function prettyStream(destination: NodeJS.WritableStream = process.stdout): DestinationStream {
  return pinoPretty({
    destination,
    colorize: destination === process.stdout ? Boolean(process.stdout.isTTY) : false,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    singleLine: true,
    sync: true,
  });
}

/**
 * Logger options for Fastify: level, the safe serializers, and the headers never written. JSON
 * lines unless `format` is 'pretty' (and no stream is given: tests pass their own).
 */
export function loggerOptions(level: string, stream?: DestinationStream, format: 'json' | 'pretty' = 'json'): LoggerOptions & { stream?: DestinationStream } {
  const out = stream ?? (format === 'pretty' ? prettyStream() : undefined);
  return {
    level,
    redact: ['req.headers.cookie', 'req.headers.authorization', 'headers.cookie', 'headers.authorization'],
    serializers: { err: serializeError, error: serializeError, req: serializeRequest as never, res: serializeReply as never },
    ...(out ? { stream: out } : {}),
  };
}

/**
 * One line per request, when it completes: method, route pattern (or the path without query for an
 * unmatched request), status, response time; pino adds the request id (reqId). Replaces Fastify's
 * own request logging, which writes the raw URL with its query string.
 */
export function registerRequestLogging(app: FastifyInstance) {
  app.addHook('onResponse', async (request, reply) => {
    const route = routeOf(request);
    request.log.info(
      {
        method: request.method,
        ...(route ? { route } : { path: pathOf(request) }),
        status: reply.statusCode,
        responseTimeMs: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request completed',
    );
  });
}
