import {
  LEAD_MESSAGES, errorResponseSchema, leadListResponseSchema, listLeadsQuerySchema, updateLeadBodySchema, updateLeadResponseSchema,
} from '@shop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { registerLeadJobs } from './lead-jobs.ts';
import { listLeads } from './list-leads.ts';
import { updateLead } from './update-lead.ts';

const admin = { access: 'admin' } as const;
const tags = ['leads'];
const security = [{ cookieAuth: [] }];
const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, errorResponseSchema]));

/** Sales leads for the back office (the chat module creates and updates them through recordLeadActivity). */
export const leadsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;
  registerLeadJobs(app.ctx.jobs, db);

  app.get('/chat/leads', {
    config: admin,
    schema: {
      tags, security,
      summary: 'Leads with statistics (admin)',
      description: 'Filter by status and interest, search name/e-mail/notes, paged (default 20), newest interaction first. `stats` covers every lead.',
      querystring: listLeadsQuerySchema,
      response: { 200: leadListResponseSchema, ...errors(400, 401, 403) },
    },
  }, async (request) => listLeads(db, request.query));

  app.put('/chat/leads/:id', {
    config: admin,
    schema: {
      tags, security,
      summary: "Update a lead's status, notes, follow-up date and details (admin)",
      params: z.object({ id: z.string().max(100) }),
      body: updateLeadBodySchema,
      response: { 200: updateLeadResponseSchema, ...errors(400, 401, 403, 404) },
    },
  }, async (request) => ({ message: LEAD_MESSAGES.updated, lead: await updateLead(db, request.params.id, request.body) }));
};
