import { errorResponseSchema, pageListSchema, pageSchema, pageSlugParamsSchema, pageSourceQuerySchema, pageUpdateBodySchema } from '@shop/contracts';
import { z } from 'zod';

const tags = ['pages'];
const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, errorResponseSchema]));

export const listPagesSchema = {
  tags,
  summary: 'The information pages (FAQ, Shipping, Returns, Terms, About, Contact): slug, title, last change',
  response: { 200: pageListSchema },
};

export const getPageSchema = {
  tags,
  summary: 'One information page: title and Markdown body; the FAQ page also lists its questions',
  description: 'The body is Markdown; clients render it without raw HTML. 404 "Page Not Found" for an unknown slug. ' +
    'Shipping placeholders ({{shipping.summary}}, {{shipping.flatRate}}, {{shipping.freeOver}}, {{shipping.countries}}, ' +
    '{{shipping.standard}}, {{shipping.days}}) are filled from the shipping settings; `source=true` answers the text as stored (the editor).',
  params: pageSlugParamsSchema,
  querystring: pageSourceQuerySchema,
  response: { 200: pageSchema, ...errors(400, 404) },
};

export const updatePageSchema = {
  tags,
  security: [{ cookieAuth: [] }],
  summary: 'Edit an information page (admin)',
  description:
    'Saves title and Markdown body. On the FAQ page, `faq` (when sent) replaces every question in the order given; the chat ' +
    'assistant answers from them (this instance at once, others within 30 s).',
  params: pageSlugParamsSchema,
  body: pageUpdateBodySchema,
  response: { 200: z.object({ message: z.string(), page: pageSchema }), ...errors(400, 401, 403, 404) },
};
