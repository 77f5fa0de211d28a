import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Routes of the payments module are registered here.
export const paymentsRoutes: FastifyPluginAsyncZod = async () => {};
