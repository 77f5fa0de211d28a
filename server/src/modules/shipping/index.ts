// The shipping module's public face: the shipping rule per destination (issue 36; back-office
// shipping settings will live here).
export { shippingRuleFor, type ShippingRule } from './shipping-rules.ts';
