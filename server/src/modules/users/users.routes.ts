import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Routes of the users module are registered here.
export const usersRoutes: FastifyPluginAsyncZod = async () => {};
