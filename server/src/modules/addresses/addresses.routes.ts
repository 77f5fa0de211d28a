import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Routes of the addresses module are registered here.
export const addressesRoutes: FastifyPluginAsyncZod = async () => {};
