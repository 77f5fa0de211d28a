import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Routes of the products module are registered here.
export const productsRoutes: FastifyPluginAsyncZod = async () => {};
