import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Routes of the cart module are registered here.
export const cartRoutes: FastifyPluginAsyncZod = async () => {};
