import type { PlaceOrderBody } from '@shop/contracts';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import ListGroup from 'react-bootstrap/ListGroup';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import { Link, Navigate, useNavigate } from 'react-router';
import { toast } from '../../../lib/toast';
import { paths } from '../../../lib/paths';
import { useStore } from '../../../lib/store';
import { CheckoutSteps } from '../../../components/CheckoutSteps';
import { LoadingBox } from '../../../components/LoadingBox';
import { MessageBox } from '../../../components/MessageBox';
import { PageTitle } from '../../../components/PageTitle';
import { ApiError } from '../../../lib/api-client';
import { roundMoney } from '../../../lib/format';
import { DiscountCodeBox, useCart } from '../../cart';
import { OrderCard, OrderItemsList, OrderSummaryCard, PaymentCard, ShippingCard } from '../../orders';
import { usePlaceOrder } from '../api/place-order';
import { useShippingQuote } from '../api/get-shipping-quote';

const ORDER_FAILED = 'Order creation failed. Please try again.';

export default function PlaceOrderPage() {
  const { state } = useStore();
  const navigate = useNavigate();
  const { shippingAddress, paymentMethod } = state.cart;
  // The cart as the server prices it now (the same cache entry the cart feature keeps in step).
  const cart = useCart(true);
  const items = cart.data?.cartItems ?? state.cart.cartItems;
  const isPending = cart.isPending;
  const placeOrder = usePlaceOrder();
  // Shipping as the server will charge it: the shop's shipping settings for the address's country
  // (and the freight of items that ship separately, when the settings charge it).
  const quote = useShippingQuote(shippingAddress?.country, items);

  if (!shippingAddress) return <Navigate to={paths.shipping} replace />;

  // A preview only: the order the server creates carries the authoritative amounts.
  const itemsPrice = roundMoney(items.reduce((sum, x) => sum + x.price * x.quantity, 0));
  const quoting = quote.isFetching || (quote.isPending && quote.fetchStatus !== 'idle');
  const shippingPrice = quote.data?.shippingPrice ?? 0;
  const taxPrice = 0;
  // The cart's discount code, as the server judged it (it is checked again when the order is placed).
  const discount = cart.data?.discount?.isValid ? cart.data.discount : null;
  const discountPrice = discount ? (discount.kind === 'free_shipping' ? shippingPrice : Math.min(discount.amount, itemsPrice)) : 0;
  const totalPrice = roundMoney(itemsPrice - discountPrice + shippingPrice + taxPrice);

  const onPlaceOrder = () => {
    const withCode = discount ? { discountCode: discount.code } : {};
    const body: PlaceOrderBody = shippingAddress._id
      ? { addressId: shippingAddress._id, paymentMethod: 'PayPal', ...withCode }
      : {
          ...withCode,
          shippingAddress: {
            fullName: shippingAddress.fullName,
            address: shippingAddress.address,
            city: shippingAddress.city,
            postalCode: shippingAddress.postalCode,
            country: shippingAddress.country,
          },
          paymentMethod: 'PayPal',
        };
    placeOrder.mutate(body, {
      onSuccess: (order) => void navigate(paths.order(order._id)),
      onError: (error) => toast.error(error instanceof ApiError && error.status < 500 && error.message ? error.message : ORDER_FAILED),
    });
  };

  return (
    <div>
      <CheckoutSteps step={4} />
      <PageTitle title="Preview Order" />
      <Row>
        <Col md={8}>
          <ShippingCard address={shippingAddress}>
            <Link to={paths.shipping}>Edit</Link>
          </ShippingCard>
          <PaymentCard method={paymentMethod}>
            <Link to={paths.payment}>Edit</Link>
          </PaymentCard>
          <OrderCard title="Items" className="mb-3">
            {isPending && items.length === 0 ? (
              <LoadingBox />
            ) : items.length === 0 ? (
              <MessageBox>
                Cart is empty. <Link to={paths.home}>Go Shopping</Link>
              </MessageBox>
            ) : (
              <OrderItemsList items={items} />
            )}
            <Link to={paths.cart}>Edit</Link>
          </OrderCard>
        </Col>
        <Col md={4}>
          <OrderSummaryCard amounts={{ itemsPrice, shippingPrice, taxPrice, totalPrice, discountCode: discount?.code, discountPrice }} currency="USD">
            <ListGroup.Item>
              <DiscountCodeBox discount={cart.data?.discount} />
            </ListGroup.Item>
            {quote.data?.label && (
              <ListGroup.Item className="small text-body-secondary" data-testid="shipping-carrier">
                Shipping: {quote.data.label}
              </ListGroup.Item>
            )}
            {quote.data?.message && (
              <ListGroup.Item>
                <MessageBox variant="warning">{quote.data.message}</MessageBox>
              </ListGroup.Item>
            )}
            {quote.isError && (
              <ListGroup.Item>
                <MessageBox variant="danger">
                  {quote.error instanceof ApiError && quote.error.status < 500 && quote.error.message
                    ? quote.error.message
                    : 'Shipping could not be quoted right now.'}
                </MessageBox>
              </ListGroup.Item>
            )}
            <ListGroup.Item>
              <div className="d-grid">
                <Button type="button" onClick={onPlaceOrder} disabled={items.length === 0 || placeOrder.isPending || quoting}>
                  {(placeOrder.isPending || quoting) && <Spinner animation="border" size="sm" className="me-2" aria-hidden="true" />}
                  Place Order
                </Button>
              </div>
            </ListGroup.Item>
          </OrderSummaryCard>
        </Col>
      </Row>
    </div>
  );
}
