import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import {
  AppError, DATABASE_UNAVAILABLE_MESSAGE, DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS, isDatabaseUnavailableError, type FieldErrors,
} from './errors.ts';
import { serializeError } from './logging.ts';
import { INVALID_UPLOAD, isMalformedMultipartError } from './multipart.ts';

/**
 * PostgreSQL's SQLSTATEs for a statement stopped by the request timeouts of the serving pool
 * (DATABASE_QUERY_TIMEOUT_SECONDS, db/client.ts): 57014 query_canceled (statement_timeout, or a
 * query an operator cancelled) and 55P03 lock_not_available (lock_timeout). Neither is a fault of
 * the request's SQL: the database is too slow or too busy right now.
 */
const DATABASE_TIMEOUT_CODES = new Set(['57014', '55P03']);
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

/** Whether `err` is a query stopped by the serving pool's time limits (503, like an unreachable database). */
export function isDatabaseTimeoutError(err: unknown): boolean {
  return errorChain(err).some(({ code, message }) =>
    (typeof code === 'string' && DATABASE_TIMEOUT_CODES.has(code)) || message === QUERY_READ_TIMEOUT);
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
