import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Routes of the orders module are registered here.
export const ordersRoutes: FastifyPluginAsyncZod = async () => {};
