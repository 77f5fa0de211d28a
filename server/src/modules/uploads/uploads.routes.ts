import { errorResponseSchema, UPLOAD_MESSAGES, uploadResponseSchema } from '@shop/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { createImageVariants, parseVariantWidth } from './image-variants.ts';
import { toWebp } from './process-image.ts';
import { variantCacheDir, type StoredFile, type StoredFileInfo, type UploadStore } from './upload-store.ts';

export const UPLOADED_MESSAGE = 'Image uploaded successfully. Click Update to apply it.';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Reads the multipart field `file` into memory, mapping the plugin's errors to clear 400s. */
async function readUploadedFile(request: FastifyRequest, maxBytes: number): Promise<Buffer> {
  const tooLarge = `File too large (max ${Math.round((maxBytes / 1024 / 1024) * 10) / 10} MB)`;
  if (!request.isMultipart()) throw badRequest(UPLOAD_MESSAGES.noFile, { file: UPLOAD_MESSAGES.noFile });
  try {
    const part = await request.file();
    if (!part || part.fieldname !== 'file') throw badRequest(UPLOAD_MESSAGES.noFile, { file: UPLOAD_MESSAGES.noFile });
    const buffer = await part.toBuffer();
    if (part.file.truncated) throw badRequest(tooLarge, { file: tooLarge });
    if (!buffer.length) throw badRequest(UPLOAD_MESSAGES.noFile, { file: UPLOAD_MESSAGES.noFile });
    return buffer;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(tooLarge, { file: tooLarge });
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw badRequest('Send one image in the multipart field file', { file: UPLOAD_MESSAGES.noFile });
    }
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw badRequest(UPLOAD_MESSAGES.noFile, { file: UPLOAD_MESSAGES.noFile });
    throw err;
  }
}

/** Stores an uploaded image as WebP under a fresh key and returns its URL. */
export async function saveUploadedImage(store: UploadStore, input: Buffer): Promise<string> {
  const webp = await toWebp(input);
  return store.put(`${newId()}.webp`, webp, 'image/webp');
}

const uploadApi: FastifyPluginAsyncZod = async (app) => {
  const { config, uploads: store } = app.ctx;
  app.post(
    '/upload',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['uploads'],
        summary: 'Back office: upload a product image (multipart field file; JPEG, PNG, WebP, GIF or AVIF, max 5 MB)',
        consumes: ['multipart/form-data'],
        response: { 201: uploadResponseSchema, 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const input = await readUploadedFile(request, config.uploadMaxBytes);
      const url = await saveUploadedImage(store, input);
      return reply.status(201).send({ secure_url: url, message: UPLOADED_MESSAGE });
    },
  );
};

const matchesEtag = (request: FastifyRequest, etag: string) =>
  (request.headers['if-none-match'] ?? '').split(',').some((tag) => tag.trim() === etag);

/** Headers of an immutable file: a one-year cache and its validators. */
function setImmutableHeaders(reply: FastifyReply, file: StoredFileInfo) {
  reply.header('cache-control', IMMUTABLE).header('etag', file.etag).header('last-modified', file.modifiedAt.toUTCString());
}

/** Sends a stored file with a one-year immutable cache, an ETag and 304 for a matching If-None-Match. */
function sendImmutable(request: FastifyRequest, reply: FastifyReply, file: StoredFile) {
  setImmutableHeaders(reply, file);
  if (matchesEtag(request, file.etag)) {
    file.body.destroy();
    return reply.status(304).send();
  }
  return reply.type(file.contentType).header('content-length', file.size).send(file.body);
}

const uploadFiles: FastifyPluginAsyncZod = async (app) => {
  const store = app.ctx.uploads;
  const variants = createImageVariants(store, variantCacheDir(app.ctx.config.dataDir));
  app.get(
    '/uploads/:key',
    { config: { access: 'public' }, schema: { hide: true, params: z.object({ key: z.string().max(200) }) } },
    async (request, reply) => {
      const { key } = request.params;
      if (request.headers['if-none-match']) {
        // A revalidation needs no bytes (on PostgreSQL, no read of the image).
        const info = await store.head(key);
        if (!info) throw notFound('File not found');
        if (matchesEtag(request, info.etag)) {
          setImmutableHeaders(reply, info);
          return reply.status(304).send();
        }
      }
      const file = await store.get(key);
      if (!file) throw notFound('File not found');
      return sendImmutable(request, reply, file);
    },
  );
  app.get(
    '/uploads/w/:width/:key',
    { config: { access: 'public' }, schema: { hide: true, params: z.object({ width: z.string().max(200), key: z.string().max(200) }) } },
    async (request, reply) => {
      const width = parseVariantWidth(request.params.width);
      const file = width === null ? null : await variants.get(request.params.key, width);
      if (!file) throw notFound('File not found');
      return sendImmutable(request, reply, file);
    },
  );
};

/**
 * Image upload: POST /api/upload (admin) and the files at /uploads/{key} (from the shop's upload
 * store: disk on the embedded database, the shared `uploads` table on PostgreSQL) with a one-year
 * immutable cache (each upload gets a new key), plus resized copies at /uploads/w/{width}/{key}
 * for the widths in IMAGE_VARIANT_WIDTHS (the storefront's srcset). Wrapped with fastify-plugin so
 * that /uploads stays at the site root; the API part adds the /api prefix itself.
 */
export const uploadsRoutes = fp(
  async (app) => {
    await app.register(uploadApi, { prefix: '/api' });
    await app.register(uploadFiles);
  },
  { name: 'uploads-module' },
);
