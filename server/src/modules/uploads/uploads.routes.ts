import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Routes of the uploads module are registered here.
export const uploadsRoutes: FastifyPluginAsyncZod = async () => {};
