import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import {
  AppError, DATABASE_UNAVAILABLE_MESSAGE, DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS, isDatabaseUnavailableError, type FieldErrors,
} from './errors.ts';
import { INVALID_UPLOAD, isMalformedMultipartError } from './multipart.ts';

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
    if (isDatabaseUnavailableError(error)) {
      // Logged at warn without the stack: during an outage every request ends here.
      request.log.warn({ err: { message: error.message, code: (error as { code?: unknown }).code }, method: request.method, route: request.routeOptions.url ?? null, status: 503 }, 'database unavailable');
      return reply.status(503).header('retry-after', String(DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS))
        .send({ message: DATABASE_UNAVAILABLE_MESSAGE, code: 'DATABASE_UNAVAILABLE' });
    }
    const sent = status >= 500 && status < 600 ? status : 500;
    request.log.error({ err: error, method: request.method, route: request.routeOptions.url ?? null, status: sent }, 'request failed');
    return reply.status(sent).send({ message: 'Internal Server Error', code: 'INTERNAL' });
  });
}
