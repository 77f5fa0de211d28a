import { errorResponseSchema, messageResponseSchema, newsletterSubscribeBodySchema, newsletterUnsubscribeBodySchema } from '@shop/contracts';

const tags = ['newsletter'];
const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, errorResponseSchema]));

export const subscribeSchema = {
  tags,
  summary: 'Subscribe an e-mail address to the newsletter',
  description:
    'Answers 202 with the same message whether or not the address was already subscribed. A new (or lapsed) subscription ' +
    'gets a confirmation mail with an unsubscribe link. Rate limited per IP and per e-mail.',
  body: newsletterSubscribeBodySchema,
  response: { 202: messageResponseSchema, ...errors(400, 403, 429) },
};

export const unsubscribeSchema = {
  tags,
  summary: 'Unsubscribe with the token from the confirmation mail',
  description: 'Idempotent: a second call with the same token answers the same. 400 for an unknown token.',
  body: newsletterUnsubscribeBodySchema,
  response: { 200: messageResponseSchema, ...errors(400, 403, 429) },
};
