import { PAGE_UPDATED } from '@shop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { refreshFaq, setFaqSource } from '../chat/assistant/faq.ts';
import { getPage } from './get-page.ts';
import { listFaqEntries } from './list-faq-entries.ts';
import { listPages } from './list-pages.ts';
import * as s from './pages.schemas.ts';
import { updatePage } from './update-page.ts';

/** The footer's information pages (read by anyone, edited by administrators) and the FAQ the assistant answers from. */
export const pagesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  await setFaqSource(() => listFaqEntries(ctx.db));

  app.get('/pages', { config: { access: 'public' }, schema: s.listPagesSchema }, async () => listPages(ctx.db));

  app.get('/pages/:slug', { config: { access: 'public' }, schema: s.getPageSchema }, async (request) =>
    getPage(ctx.db, request.params.slug, { source: request.query.source === 'true' }));

  app.put('/pages/:slug', { config: { access: 'admin' }, schema: s.updatePageSchema }, async (request) => {
    const page = await updatePage(ctx.db, request.params.slug, request.body);
    if (page.faq) await refreshFaq();
    return { message: PAGE_UPDATED, page };
  });
};
