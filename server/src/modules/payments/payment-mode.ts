import { DEMO_CLIENT_ID, type PaymentConfig } from '@shop/contracts';
import type { Config } from '../../config.ts';

/** PayPal when both credentials are set; otherwise the demo provider (no money is taken). */
export function paymentMode(config: Config): 'paypal' | 'demo' {
  return config.paypal.clientId && config.paypal.clientSecret ? 'paypal' : 'demo';
}

/** Demo payments: only without PayPal credentials, and in production only with ALLOW_DEMO_PAYMENTS=true. */
export function areDemoPaymentsAllowed(config: Config): boolean {
  return paymentMode(config) === 'demo' && config.allowDemoPayments;
}

export function presentPaymentConfig(config: Config): PaymentConfig {
  const mode = paymentMode(config);
  return {
    clientId: mode === 'paypal' ? config.paypal.clientId! : DEMO_CLIENT_ID,
    mode,
    currency: 'USD',
    demoPaymentsAllowed: areDemoPaymentsAllowed(config),
  };
}
