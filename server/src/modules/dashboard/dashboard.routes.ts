import { errorResponseSchema, orderSummarySchema, summaryQuerySchema } from '@shop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getOrderSummary } from './get-order-summary.ts';

const errors = Object.fromEntries([400, 401, 403].map((c) => [c, errorResponseSchema]));

/** The back-office dashboard. */
export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/orders/summary', {
    config: { access: 'admin' },
    schema: {
      tags: ['dashboard'],
      security: [{ cookieAuth: [] }],
      summary: 'Sales summary for the dashboard (admin)',
      description:
        'Paid orders only, grouped by UTC day of payment; sales are net of refunds, each refund on the UTC day it was given ' +
        '(grossSales, totalRefunds and each day\'s refunds say what it is made of). `from`/`to` are inclusive UTC days (YYYY-MM-DD); by default the last ' +
        '30 days up to today; at most 366 days. Every day of the period is listed (0 when nothing sold). `previous` holds the ' +
        'same figures for the period of equal length just before. productCategories counts published products per category.',
      querystring: summaryQuerySchema,
      response: { 200: orderSummarySchema, ...errors },
    },
  }, async (request) => getOrderSummary(app.ctx.db, request.query));
};
