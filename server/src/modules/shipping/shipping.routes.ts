import { SHIPPING_SETTINGS_SAVED } from '@shop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../lib/auth.ts';
import { refreshFaq } from '../chat/assistant/faq.ts';
import { describeShippingCost } from './describe-shipping.ts';
import { quoteCartShipping } from './quote-cart-shipping.ts';
import * as s from './shipping.schemas.ts';
import { getShippingSettings, presentShippingSettings, saveShippingSettings } from './shipping-settings.ts';

/** Shipping settings (back office), the rates shoppers read, and the checkout's shipping quote. */
export const shippingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;

  app.get('/shipping/settings', { config: { access: 'admin' }, schema: s.getSettingsSchema }, async () =>
    ({ settings: presentShippingSettings(await getShippingSettings(db)) }));

  app.put('/shipping/settings', { config: { access: 'admin' }, schema: s.putSettingsSchema }, async (request) => {
    const settings = await saveShippingSettings(db, request.body);
    await refreshFaq(); // the assistant's FAQ answers carry the filled placeholders (other instances: within 30 s)
    return { message: SHIPPING_SETTINGS_SAVED, settings: presentShippingSettings(settings) };
  });

  app.get('/shipping/rates', { config: { access: 'public' }, schema: s.getRatesSchema }, async () => {
    const settings = await getShippingSettings(db);
    const { flatRate, freeOver, countryRates } = presentShippingSettings(settings);
    return { flatRate, freeOver, countryRates, summary: describeShippingCost(settings) };
  });

  // The supplier module sets app.ctx.freight (CJ's freight quotes); read when asked, whatever the registration order.
  app.post('/orders/shipping-quote', { config: { access: 'user' }, schema: s.quoteSchema }, async (request) =>
    quoteCartShipping(db, app.ctx.freight, requireUser(request).id, request.body.country));
};
