// The shipping module's public face (issue 34 point 3): the shipping settings, the one rule checkout
// charges from, and the words the Shipping page, the FAQ and the assistant say it with.
export { shippingRuleFor, type ShippingRule } from './shipping-rules.ts';
export { getShippingSettings, readShippingSettings, shippingSettingsJson, DEFAULT_SHIPPING_SETTINGS, type ShippingSettingsRecord } from './shipping-settings.ts';
export { shippingTerms, shippingPriceOf, shopRateFor, type ShippingTerms } from './shipping-price.ts';
export { describeSeparateShipping, describeShippingCost, describeShippingTo, fillShippingPlaceholders } from './describe-shipping.ts';
