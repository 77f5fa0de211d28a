import {
  adminCreateUserBodySchema, adminUpdateUserBodySchema, adminUserMessageResponseSchema, adminUserSchema, errorResponseSchema,
  listUsersQuerySchema, messageResponseSchema, userListResponseSchema,
} from '@shop/contracts';
import { z } from 'zod';

const tags = ['users (admin)'];
const security = [{ cookieAuth: [] }];
const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, errorResponseSchema]));
const idParams = z.object({ id: z.string().max(100) });

export const listUsersSchema = {
  tags, security,
  summary: 'Users, newest first (admin)',
  description: 'Paged with page/pageSize (default 20, at most 100); `search` matches name or e-mail (case-insensitive). Never carries password hashes or tokens.',
  querystring: listUsersQuerySchema,
  response: { 200: userListResponseSchema, ...errors(400, 401, 403) },
};
export const getUserSchema = { tags, security, summary: 'One user (admin)', params: idParams, response: { 200: adminUserSchema, ...errors(401, 403, 404) } };
export const updateUserSchema = {
  tags, security,
  summary: "Update a user's name, e-mail and admin flag (admin)",
  description: '409 when the e-mail belongs to another account, when administrators demote themselves, or when the last administrator would be demoted.',
  params: idParams,
  body: adminUpdateUserBodySchema,
  response: { 200: adminUserMessageResponseSchema, ...errors(400, 401, 403, 404, 409) },
};
export const deleteUserSchema = {
  tags, security,
  summary: 'Delete a user (admin)',
  description: 'Ends their sessions at once, removes their cart and addresses, keeps their orders. 409 for yourself or the last administrator.',
  params: idParams,
  response: { 200: messageResponseSchema, ...errors(401, 403, 404, 409) },
};
export const createUserSchema = {
  tags, security,
  summary: 'Create an account (admin); the person chooses a password from a mailed link',
  body: adminCreateUserBodySchema,
  response: { 201: adminUserMessageResponseSchema, ...errors(400, 401, 403, 409) },
};
