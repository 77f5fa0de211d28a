import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Navigate, useNavigate } from 'react-router';
import { paths } from '../../../lib/paths';
import { DEFAULT_PAYMENT_METHOD, useStore } from '../../../lib/store';
import { CheckoutSteps } from '../../../components/CheckoutSteps';
import { PageTitle } from '../../../components/PageTitle';

export default function PaymentPage() {
  const { state, dispatch } = useStore();
  const navigate = useNavigate();
  const { shippingAddress, paymentMethod } = state.cart;
  const [method, setMethod] = useState(paymentMethod === DEFAULT_PAYMENT_METHOD ? paymentMethod : DEFAULT_PAYMENT_METHOD);

  if (!shippingAddress) return <Navigate to={paths.shipping} replace />;

  return (
    <div>
      <CheckoutSteps step={3} />
      <div className="container-sm" style={{ maxWidth: 640 }}>
        <PageTitle title="Payment Method" />
        <Form
          onSubmit={(e) => {
            e.preventDefault();
            dispatch({ type: 'SAVE_PAYMENT_METHOD', payload: method });
            void navigate(paths.placeOrder);
          }}
        >
          <fieldset className="mb-3">
            <legend className="visually-hidden">Payment Method</legend>
            <Form.Check
              type="radio"
              id="payment-paypal"
              name="paymentMethod"
              label="PayPal"
              value="PayPal"
              checked={method === 'PayPal'}
              onChange={(e) => setMethod(e.target.value)}
              className="mb-2"
            />
            <Form.Check type="radio" id="payment-stripe" name="paymentMethod" label="Stripe" value="Stripe" disabled aria-describedby="stripe-note" />
            <Form.Text id="stripe-note">Stripe is not available yet.</Form.Text>
          </fieldset>
          <Button type="submit" variant="primary">
            Continue
          </Button>
        </Form>
      </div>
    </div>
  );
}
