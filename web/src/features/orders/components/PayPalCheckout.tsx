import { DISPATCH_ACTION, PayPalButtons, PayPalScriptProvider, SCRIPT_LOADING_STATE, usePayPalScriptReducer } from '@paypal/react-paypal-js';
import { ORDER_MESSAGES } from '@shop/contracts/constants';
import { useEffect } from 'react';
import { toast } from '../../../lib/toast';
import { LoadingBox } from '../../../components/LoadingBox';
import { MessageBox } from '../../../components/MessageBox';
import { getErrorMessage } from '../../../lib/api-client';
import { createPaypalOrder } from '../api/create-paypal-order';

function PayPalButtonsWhenLoaded({ orderId, onApprove }: { orderId: string; onApprove: (paypalOrderId: string) => Promise<void> }) {
  const [{ isPending, isRejected, isInitial }, dispatch] = usePayPalScriptReducer();

  // The SDK is fetched only now, when the buyer is about to pay.
  useEffect(() => {
    dispatch({ type: DISPATCH_ACTION.LOADING_STATUS, value: SCRIPT_LOADING_STATE.PENDING });
  }, [dispatch]);

  if (isRejected) return <MessageBox variant="danger">{ORDER_MESSAGES.paypalError}</MessageBox>;
  if (isPending || isInitial) return <LoadingBox label="Loading PayPal..." />;
  return (
    <PayPalButtons
      style={{ layout: 'vertical' }}
      createOrder={async () => (await createPaypalOrder(orderId)).id}
      onApprove={async (data) => {
        await onApprove(data.orderID);
      }}
      onError={(err) => {
        toast.error(getErrorMessage(err));
      }}
    />
  );
}

/** PayPal's own buttons: the server creates the PayPal order and captures it on approval. Its own chunk. */
export default function PayPalCheckout({
  clientId,
  orderId,
  onApprove,
}: {
  clientId: string;
  orderId: string;
  onApprove: (paypalOrderId: string) => Promise<void>;
}) {
  return (
    <PayPalScriptProvider deferLoading options={{ clientId, currency: 'USD', intent: 'capture' }}>
      <PayPalButtonsWhenLoaded orderId={orderId} onApprove={onApprove} />
    </PayPalScriptProvider>
  );
}
