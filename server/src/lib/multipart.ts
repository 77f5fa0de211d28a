import fastifyMultipart, { type Multipart, type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, badRequest } from './errors.ts';
import { assertNoNul } from './input-guard.ts';

export const INVALID_UPLOAD = 'Invalid upload';

/** True for an error raised by the multipart parser (busboy) on malformed input rather than by us. */
export function isMalformedMultipartError(err: unknown): boolean {
  if (!(err instanceof Error) || err instanceof AppError) return false;
  if ((err as { statusCode?: unknown }).statusCode !== undefined) return false; // the plugin's own 4xx (limits, content type)
  return /[\\/]@fastify[\\/]busboy[\\/]/.test(err.stack ?? '') || /^(Multipart|Malformed|Unexpected end of (form|multipart))|terminated early/i.test(err.message);
}

function asUploadError(err: unknown): unknown {
  return isMalformedMultipartError(err) ? badRequest(INVALID_UPLOAD, { file: INVALID_UPLOAD }, 'INVALID_UPLOAD') : err;
}

/** NUL characters are refused in multipart field names, file names and field values, like everywhere else. */
function checkPart(part: Multipart) {
  const fields = Object.values(part.fields ?? {}).flatMap((f) => (Array.isArray(f) ? f : [f])).filter((f): f is Multipart => !!f);
  for (const p of [part, ...fields]) {
    assertNoNul('multipart', { [p.fieldname]: p.type === 'file' ? (p.filename ?? '') : p.value });
  }
  if (part.type === 'file') {
    const toBuffer = part.toBuffer.bind(part);
    (part as MultipartFile).toBuffer = async () => {
      try {
        return await toBuffer();
      } catch (err) {
        throw asUploadError(err);
      }
    };
  }
}

/**
 * Multipart bodies (image upload), for every route that reads them: a malformed body (no boundary,
 * broken part headers, truncated data) is a 400 'Invalid upload', never a 500, and NUL characters
 * are refused in its fields. The request's `file`, `files` and `parts` readers are wrapped once
 * here, so a new upload route needs nothing of its own.
 */
export async function registerMultipart(app: FastifyInstance, limits: { fileSize: number; files: number; fields: number }) {
  await app.register(fastifyMultipart, { limits });
  app.addHook('preHandler', async (request: FastifyRequest) => {
    if (!request.isMultipart()) return;
    const proto = Object.getPrototypeOf(request) as FastifyRequest;
    const file = proto.file;
    const files = proto.files;
    const parts = proto.parts;
    request.file = async function guardedFile(this: FastifyRequest, ...args: Parameters<FastifyRequest['file']>) {
      try {
        const part = await file.apply(this, args);
        if (part) checkPart(part);
        return part;
      } catch (err) {
        throw asUploadError(err);
      }
    } as FastifyRequest['file'];
    const guardIterator = <T extends Multipart>(source: AsyncIterableIterator<T>): AsyncIterableIterator<T> => {
      const it = source[Symbol.asyncIterator]();
      const guarded: AsyncIterableIterator<T> = {
        async next() {
          try {
            const res = await it.next();
            if (!res.done) checkPart(res.value);
            return res;
          } catch (err) {
            throw asUploadError(err);
          }
        },
        async return(value?: unknown) {
          return (await it.return?.(value)) ?? { done: true, value: undefined };
        },
        [Symbol.asyncIterator]() {
          return guarded;
        },
      };
      return guarded;
    };
    request.files = function guardedFiles(this: FastifyRequest, ...args: Parameters<FastifyRequest['files']>) {
      return guardIterator(files.apply(this, args));
    } as FastifyRequest['files'];
    request.parts = function guardedParts(this: FastifyRequest, ...args: Parameters<FastifyRequest['parts']>) {
      return guardIterator(parts.apply(this, args));
    } as FastifyRequest['parts'];
  });
}
