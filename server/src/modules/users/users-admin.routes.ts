import { USER_MESSAGES } from '@shop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../lib/auth.ts';
import { createUserAsAdmin } from './create-user.ts';
import { getAdminUser, listUsers } from './list-users.ts';
import { deleteUserAsAdmin, updateUserAsAdmin } from './manage-user.ts';
import * as s from './users-admin.schemas.ts';

const admin = { access: 'admin' } as const;

/** Users administration (back office). Admin rights are re-read from the database on every request. */
export const usersAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.get('/users', { config: admin, schema: s.listUsersSchema }, async (request) => listUsers(ctx.db, request.query));

  app.post('/users', { config: admin, schema: s.createUserSchema }, async (request, reply) => {
    const user = await createUserAsAdmin({ db: ctx.db, mailer: ctx.mailer }, request.body, ctx.config.siteUrl);
    return reply.status(201).send({ message: USER_MESSAGES.created, user });
  });

  app.get('/users/:id', { config: admin, schema: s.getUserSchema }, async (request) => getAdminUser(ctx.db, request.params.id));

  app.put('/users/:id', { config: admin, schema: s.updateUserSchema }, async (request) => {
    const user = await updateUserAsAdmin(ctx.db, requireUser(request).id, request.params.id, request.body, { mailer: ctx.mailer, siteUrl: ctx.config.siteUrl });
    ctx.recheckChatSockets(request.params.id); // a demoted administrator's chat sockets lose their rights
    return { message: USER_MESSAGES.updated, user };
  });

  app.delete('/users/:id', { config: admin, schema: s.deleteUserSchema }, async (request) => {
    await deleteUserAsAdmin(ctx.db, requireUser(request).id, request.params.id);
    ctx.recheckChatSockets(request.params.id);
    return { message: USER_MESSAGES.deleted };
  });
};
