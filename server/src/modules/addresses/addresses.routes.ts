import { ADDRESS_DELETED_MESSAGE } from '@shop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../lib/auth.ts';
import {
  createAddress, deleteAddress, listAddresses, setDefaultAddress, updateAddress,
} from './address-book.ts';
import * as s from './addresses.schemas.ts';

const user = { access: 'user' } as const;

/** The signed-in user's address book; other users' addresses answer 404. */
export const addressesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;

  app.get('/addresses', { config: user, schema: s.listAddressesSchema }, async (request) =>
    listAddresses(db, requireUser(request).id));

  app.post('/addresses', { config: user, schema: s.createAddressSchema }, async (request, reply) => {
    const address = await createAddress(db, requireUser(request).id, request.body);
    return reply.status(201).send(address);
  });

  app.put('/addresses/:id', { config: user, schema: s.updateAddressSchema }, async (request) =>
    updateAddress(db, requireUser(request).id, request.params.id, request.body));

  app.delete('/addresses/:id', { config: user, schema: s.deleteAddressSchema }, async (request) => {
    await deleteAddress(db, requireUser(request).id, request.params.id);
    return { message: ADDRESS_DELETED_MESSAGE };
  });

  app.put('/addresses/:id/default', { config: user, schema: s.setDefaultAddressSchema }, async (request) =>
    setDefaultAddress(db, requireUser(request).id, request.params.id));
};
