import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import {
  AppError, DATABASE_UNAVAILABLE_MESSAGE, DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS, isDatabaseUnavailableError, type FieldErrors,
} from './errors.ts';
import type { AppContext } from './context.ts';
import { serializeError } from './logging.ts';
import { INVALID_UPLOAD, isMalformedMultipartError } from './multipart.ts';
import { diskFullCause, STORAGE_FULL_CODE, STORAGE_FULL_MESSAGE, STORAGE_FULL_RETRY_AFTER_SECONDS } from './storage-full.ts';

/**
 * PostgreSQL's SQLSTATEs for a statement stopped by the request timeouts of the serving pool
 * (DATABASE_QUERY_TIMEOUT_SECONDS, db/client.ts): 57014 query_canceled (statement_timeout, or a
 * query an operator cancelled) and 55P03 lock_not_available (lock_timeout). Neither is a fault of
 * the request's SQL: the database is too slow or too busy right now.
 */
const DATABASE_TIMEOUT_CODES = new Set(['57014', '55P03']);
/**
 * PostgreSQL's SQLSTATEs for a server out of resources for now: 53000 insufficient_resources and
 * 53200 out_of_memory (53300 too_many_connections is an outage: lib/errors.ts). Not the request's
 * fault and usually passing: 503 with Retry-After like a timeout. 53100 disk_full has its own
 * answer (lib/storage-full.ts).
 */
const DATABASE_OUT_OF_RESOURCES_CODES = new Set(['53000', '53200']);
/** node-postgres's query_timeout: the connection stayed silent (packets accepted, never answered). */
const QUERY_READ_TIMEOUT = 'Query read timeout';

/**
 * PostgreSQL's SQLSTATE 22003 numeric_value_out_of_range: a number too large for its column (an
 * order of 11 lines x 999 units x $1,000,000 overflows numeric(12,2)). The values come from the
 * request, so it is the request's fault: 400 with a clear message, and nothing was written (the
 * statement failed as a whole).
 */
const NUMERIC_OUT_OF_RANGE = '22003';
export const VALUE_OUT_OF_RANGE_MESSAGE = 'A number in this request is too large for the shop to store (a price, quantity or total)';

/** Whether `err` is a value too large for its database column. */
export function isValueOutOfRangeError(err: unknown): boolean {
  return errorChain(err).some(({ code }) => code === NUMERIC_OUT_OF_RANGE);
}

/** Walks `err` and its `cause` chain (Drizzle wraps the driver's error), outermost first. */
function errorChain(err: unknown): Array<Record<string, unknown>> {
  const chain: Array<Record<string, unknown>> = [];
  let current: unknown = err;
  while (current && typeof current === 'object' && !chain.includes(current as Record<string, unknown>) && chain.length < 10) {
    chain.push(current as Record<string, unknown>);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

/** Whether `err` is a query stopped by the serving pool's time limits, or by a server out of memory (503, like an unreachable database). */
export function isDatabaseTimeoutError(err: unknown): boolean {
  return errorChain(err).some(({ code, message }) =>
    (typeof code === 'string' && (DATABASE_TIMEOUT_CODES.has(code) || DATABASE_OUT_OF_RESOURCES_CODES.has(code))) || message === QUERY_READ_TIMEOUT);
}

/**
 * What the `database unavailable` warning says about the error, without stacks (during an outage
 * every request ends there): the driver's message and code (the innermost error that has one: the
 * SQLSTATE, or Node's ECONNREFUSED, ETIMEDOUT...), its type, and the failed statement (Drizzle's
 * query: SQL with placeholders, never the parameters), as the log's error serializer renders them.
 */
export function databaseErrorSummary(err: unknown): Record<string, unknown> {
  const chain = errorChain(err).map((e) => {
    // AggregateError (each address of a host refused): its first error says why.
    const first = Array.isArray(e.errors) && !e.message ? (e.errors as unknown[])[0] : undefined;
    return serializeError(first ?? e, 3);
  });
  const coded = [...chain].reverse().find((e) => e.code !== undefined);
  const root = coded ?? chain[chain.length - 1] ?? { message: String(err) };
  const outer = chain[0];
  return {
    type: root.type,
    message: root.message,
    ...(root.code !== undefined ? { code: root.code } : {}),
    ...(typeof outer?.query === 'string' ? { query: outer.query } : {}),
  };
}

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[]; message?: string } };
}

function describeValidation(context: string | undefined, issues: ValidationIssue[], fromZod: boolean) {
  const fieldErrors: FieldErrors = {};
  for (const issue of issues) {
    const pathParts = issue.params?.issue?.path ?? issue.instancePath?.split('/').filter(Boolean) ?? [];
    const field = pathParts.map(String).join('.') || context || 'request';
    const msg = issue.params?.issue?.message ?? issue.message ?? 'Invalid value';
    fieldErrors[field] ??= msg;
  }
  const [field, first] = Object.entries(fieldErrors)[0] ?? ['request', 'Invalid request'];
  // Custom messages from our schemas read as sentences; zod's defaults (and JSON-schema validators'
  // "must be >= 0") need the field name.
  const generic = !fromZod || /^(Invalid|Required|Expected|Too (small|big))/i.test(first);
  const message = generic ? `Invalid ${context ?? 'request'} field '${field}': ${first}` : first;
  return { message, fieldErrors };
}

/** One error handler: `{ message, code?, fieldErrors? }`; 5xx bodies never carry internal text. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) {
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.status(error.statusCode).send({
        message: error.message,
        ...(error.code ? { code: error.code } : {}),
        ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const { message, fieldErrors } = describeValidation(error.validationContext, error.validation as ValidationIssue[], true);
      return reply.status(400).send({ message, code: 'VALIDATION_ERROR', fieldErrors });
    }
    const fe = error as FastifyError;
    if (fe.validation) {
      const { message, fieldErrors } = describeValidation(fe.validationContext, fe.validation as ValidationIssue[], false);
      return reply.status(400).send({ message, code: 'VALIDATION_ERROR', fieldErrors });
    }
    if (isMalformedMultipartError(error)) {
      return reply.status(400).send({ message: INVALID_UPLOAD, code: 'INVALID_UPLOAD', fieldErrors: { file: INVALID_UPLOAD } });
    }
    const status = fe.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message = fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError ? 'Request body is not valid JSON' : fe.message;
      return reply.status(status).send({ message, code: fe.code ?? 'BAD_REQUEST' });
    }
    const full = diskFullCause(error);
    if (full) {
      // What is full, for the operator: the database (which one, and PostgreSQL's own words: the file
      // it could not extend) or the path Node could not write. The statement or transaction failed
      // as a whole, an upload's temporary file is removed: nothing is half-written.
      // app.ctx is absent only in tests that build a bare Fastify with this handler.
      const ctx = (app as { ctx?: AppContext }).ctx;
      ctx?.storageHealth.noteFull(full);
      const embedded = ctx?.database.kind === 'pglite' ? ctx.config.dataDir : null;
      const where = full.what === 'database'
        ? { database: ctx?.database.kind ?? null, ...(embedded ? { dataDir: embedded } : {}), code: full.code, detail: full.detail }
        : { path: full.path, syscall: full.syscall, code: full.code };
      const what = full.what === 'database'
        ? (embedded ? `the embedded database in ${embedded}` : "the database server's disk")
        : (full.path ?? 'a local disk');
      request.log.error({ storageFull: { what: full.what, ...where }, method: request.method, route: request.routeOptions.url ?? null, status: 503 }, `storage full: ${what}`);
      return reply.status(503).header('retry-after', String(STORAGE_FULL_RETRY_AFTER_SECONDS))
        .send({ message: STORAGE_FULL_MESSAGE, code: STORAGE_FULL_CODE });
    }
    if (isDatabaseUnavailableError(error) || isDatabaseTimeoutError(error)) {
      // Logged at warn without the stack: during an outage every request ends here. Under `dbError`,
      // not `err`: the log's `err` serializer takes Error objects only (a summary there read "[object Object]").
      request.log.warn({ dbError: databaseErrorSummary(error), method: request.method, route: request.routeOptions.url ?? null, status: 503 }, 'database unavailable');
      return reply.status(503).header('retry-after', String(DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS))
        .send({ message: DATABASE_UNAVAILABLE_MESSAGE, code: 'DATABASE_UNAVAILABLE' });
    }
    if (isValueOutOfRangeError(error)) {
      request.log.warn({ dbError: databaseErrorSummary(error), method: request.method, route: request.routeOptions.url ?? null, status: 400 }, 'value out of range');
      return reply.status(400).send({ message: VALUE_OUT_OF_RANGE_MESSAGE, code: 'VALUE_OUT_OF_RANGE' });
    }
    const sent = status >= 500 && status < 600 ? status : 500;
    request.log.error({ err: error, method: request.method, route: request.routeOptions.url ?? null, status: sent }, 'request failed');
    return reply.status(sent).send({ message: 'Internal Server Error', code: 'INTERNAL' });
  });
}
