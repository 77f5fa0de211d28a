import {
  errorResponseSchema, saveShippingSettingsResponseSchema, shippingQuoteBodySchema, shippingQuoteSchema, shippingRatesSchema,
  shippingSettingsBodySchema, shippingSettingsResponseSchema,
} from '@shop/contracts';

const tags = ['shipping'];
const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 429: errorResponseSchema, 502: errorResponseSchema, 503: errorResponseSchema };

export const getSettingsSchema = {
  tags, summary: 'Back office: the shipping settings (flat rate, free over, country rates, how separately shipped items are charged)',
  response: { 200: shippingSettingsResponseSchema, ...errors },
};
export const putSettingsSchema = {
  tags, summary: 'Back office: saves the shipping settings; checkout, the Shipping page, the FAQ and the assistant follow them',
  body: shippingSettingsBodySchema,
  response: { 200: saveShippingSettingsResponseSchema, ...errors },
};
export const getRatesSchema = {
  tags, summary: 'The shop\'s shipping rates as shoppers read them',
  response: { 200: shippingRatesSchema, ...errors },
};
export const quoteSchema = {
  tags, summary: "What Place Order will charge for shipping the signed-in user's cart to a country",
  body: shippingQuoteBodySchema,
  response: { 200: shippingQuoteSchema, ...errors },
};
