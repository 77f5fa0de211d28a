import type { PlaceOrderBody } from '@shop/contracts';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import ListGroup from 'react-bootstrap/ListGroup';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import { Link, Navigate, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { paths } from '../../../app/paths';
import { useStore } from '../../../app/store';
import { CheckoutSteps } from '../../../components/CheckoutSteps';
import { LoadingBox } from '../../../components/LoadingBox';
import { MessageBox } from '../../../components/MessageBox';
import { PageTitle } from '../../../components/PageTitle';
import { ApiError } from '../../../lib/api-client';
import { formatMoney, roundMoney } from '../../../lib/format';
import { useCart } from '../../cart/api/get-cart';
import { usePlaceOrder } from '../api/place-order';

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

  if (!shippingAddress) return <Navigate to={paths.shipping} replace />;

  // A preview only: the order the server creates carries the authoritative amounts.
  const itemsPrice = roundMoney(items.reduce((sum, x) => sum + x.price * x.quantity, 0));
  const shippingPrice = 0;
  const taxPrice = 0;
  const totalPrice = roundMoney(itemsPrice + shippingPrice + taxPrice);

  const onPlaceOrder = () => {
    const body: PlaceOrderBody = shippingAddress._id
      ? { addressId: shippingAddress._id, paymentMethod: 'PayPal' }
      : {
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
          <Card className="mb-3">
            <Card.Body>
              <Card.Title as="h2" className="h5">
                Shipping
              </Card.Title>
              <Card.Text>
                <strong>Name:</strong> {shippingAddress.fullName}
                <br />
                <strong>Address:</strong> {shippingAddress.address}, {shippingAddress.city}, {shippingAddress.postalCode}, {shippingAddress.country}
              </Card.Text>
              <Link to={paths.shipping}>Edit</Link>
            </Card.Body>
          </Card>
          <Card className="mb-3">
            <Card.Body>
              <Card.Title as="h2" className="h5">
                Payment
              </Card.Title>
              <Card.Text>
                <strong>Method:</strong> {paymentMethod}
              </Card.Text>
              <Link to={paths.payment}>Edit</Link>
            </Card.Body>
          </Card>
          <Card className="mb-3">
            <Card.Body>
              <Card.Title as="h2" className="h5">
                Items
              </Card.Title>
              {isPending && items.length === 0 ? (
                <LoadingBox />
              ) : items.length === 0 ? (
                <MessageBox>
                  Cart is empty. <Link to={paths.home}>Go Shopping</Link>
                </MessageBox>
              ) : (
                <ListGroup variant="flush">
                  {items.map((item) => (
                    <ListGroup.Item key={item._id}>
                      <Row className="align-items-center g-2">
                        <Col xs={12} md={6} className="d-flex align-items-center gap-2">
                          <img src={item.image} alt={item.name} className="img-fluid rounded img-thumbnail" style={{ maxWidth: 64 }} />
                          <Link to={item.cjData ? paths.cjProduct(item.slug) : paths.product(item.slug)}>{item.name}</Link>
                        </Col>
                        <Col xs={6} md={3}>
                          <span className="visually-hidden">Quantity: </span>
                          {item.quantity}
                        </Col>
                        <Col xs={6} md={3}>{formatMoney(item.price)}</Col>
                      </Row>
                    </ListGroup.Item>
                  ))}
                </ListGroup>
              )}
              <Link to={paths.cart}>Edit</Link>
            </Card.Body>
          </Card>
        </Col>
        <Col md={4}>
          <Card>
            <Card.Body>
              <Card.Title as="h2" className="h5">
                Order Summary
              </Card.Title>
              <ListGroup variant="flush">
                <ListGroup.Item>
                  <Row>
                    <Col>Items</Col>
                    <Col className="text-end">{formatMoney(itemsPrice)}</Col>
                  </Row>
                </ListGroup.Item>
                <ListGroup.Item>
                  <Row>
                    <Col>Shipping</Col>
                    <Col className="text-end">{formatMoney(shippingPrice)}</Col>
                  </Row>
                </ListGroup.Item>
                <ListGroup.Item>
                  <Row>
                    <Col>Tax</Col>
                    <Col className="text-end">{formatMoney(taxPrice)}</Col>
                  </Row>
                </ListGroup.Item>
                <ListGroup.Item>
                  <Row>
                    <Col>
                      <strong>Order Total</strong>
                    </Col>
                    <Col className="text-end">
                      <strong>{formatMoney(totalPrice)}</strong> <span className="small text-body-secondary">USD</span>
                    </Col>
                  </Row>
                </ListGroup.Item>
                <ListGroup.Item>
                  <div className="d-grid">
                    <Button type="button" onClick={onPlaceOrder} disabled={items.length === 0 || placeOrder.isPending}>
                      {placeOrder.isPending && <Spinner animation="border" size="sm" className="me-2" aria-hidden="true" />}
                      Place Order
                    </Button>
                  </div>
                </ListGroup.Item>
              </ListGroup>
            </Card.Body>
          </Card>
        </Col>
      </Row>
    </div>
  );
}
