import { DEMO_PAYMENT_LABEL, ORDER_MESSAGES } from '@shop/contracts/constants';
import { lazy, Suspense } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { LoadingBox } from '../../../components/LoadingBox';
import { MessageBox } from '../../../components/MessageBox';
import { usePaymentConfig } from '../api/get-payment-config';

const PayPalCheckout = lazy(() => import('./PayPalCheckout'));

export const DEMO_PAY_BUTTON = 'Pay with demo PayPal — no money is taken';

/**
 * The payment step of an unpaid order: PayPal's buttons when the server has PayPal credentials,
 * otherwise the clearly labelled demo payment.
 */
export function OrderPayment({
  orderId,
  isPaying,
  onPayPalApprove,
  onDemoPay,
}: {
  orderId: string;
  isPaying: boolean;
  onPayPalApprove: (paypalOrderId: string) => Promise<void>;
  onDemoPay: () => void;
}) {
  const config = usePaymentConfig();

  if (config.isPending) return <LoadingBox />;
  if (config.isError) return <MessageBox variant="danger">{ORDER_MESSAGES.paypalError}</MessageBox>;

  if (config.data.mode === 'paypal') {
    return (
      <Suspense fallback={<LoadingBox label="Loading PayPal..." />}>
        <PayPalCheckout clientId={config.data.clientId} orderId={orderId} onApprove={onPayPalApprove} />
      </Suspense>
    );
  }

  if (!config.data.demoPaymentsAllowed) return <MessageBox variant="warning">{ORDER_MESSAGES.demoDisabled}</MessageBox>;

  return (
    <div>
      <p className="small text-body-secondary mb-2" id="demo-payment-note">
        {DEMO_PAYMENT_LABEL}
      </p>
      <div className="d-grid">
        <Button variant="warning" onClick={onDemoPay} disabled={isPaying} aria-describedby="demo-payment-note">
          {isPaying && <Spinner animation="border" size="sm" className="me-2" aria-hidden="true" />}
          {DEMO_PAY_BUTTON}
        </Button>
      </div>
    </div>
  );
}
