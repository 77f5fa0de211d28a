import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import ListGroup from 'react-bootstrap/ListGroup';
import Row from 'react-bootstrap/Row';
import { Link, useNavigate } from 'react-router';
import { earlyKey } from '../../../lib/early-clicks';
import { paths } from '../../../lib/paths';
import { cartLineKey, useStore, type CartItem } from '../../../lib/store';
import { ListSkeleton } from '../../../components/Skeleton';
import { MessageBox } from '../../../components/MessageBox';
import { PageTitle } from '../../../components/PageTitle';
import { getErrorMessage } from '../../../lib/api-client';
import { formatMoney, roundMoney } from '../../../lib/format';
import { useCart } from '../api/get-cart';
import { useShippingRates } from '../api/get-shipping-rates';
import { useCartActions } from '../hooks/use-cart-actions';
import { summarizeCart } from '../lib/summarize-cart';
import { DiscountCodeBox } from '../components/DiscountCodeBox';

function productLink(item: CartItem) {
  return item.cjData ? paths.cjProduct(item.slug) : paths.product(item.slug);
}

/** A line's name for screen readers: two variants of one product are two lines. */
const lineLabel = (item: CartItem) => (item.variantName ? `${item.name} (${item.variantName})` : item.name);

export default function CartPage() {
  const { state } = useStore();
  const navigate = useNavigate();
  const { cartItems } = state.cart;
  const isSignedIn = Boolean(state.userInfo);
  const cart = useCart(isSignedIn);
  const { updateQuantity, removeItem } = useCartActions();
  const { count, subtotal } = summarizeCart(cartItems);
  // The code applied to the server cart, as the server judged it on its last answer.
  const discount = isSignedIn ? cart.data?.discount : null;
  const hasDiscount = Boolean(discount?.isValid && discount.amount > 0);
  // The shipping promise checkout charges from (Admin → Shipping); the exact figure for the address comes at Place Order.
  const rates = useShippingRates(cartItems.length > 0);
  const freeOver = rates.data?.freeOver ?? null;

  const isLoading = isSignedIn && cart.isPending && cart.fetchStatus !== 'idle' && cartItems.length === 0;

  return (
    <div>
      <PageTitle title="Shopping Cart" />
      <Row>
        <Col md={8}>
          {cart.isError && cartItems.length === 0 ? (
            <MessageBox variant="danger">{getErrorMessage(cart.error)}</MessageBox>
          ) : isLoading ? (
            <ListSkeleton rows={3} />
          ) : cartItems.length === 0 ? (
            <MessageBox>
              Cart is empty. <Link to={paths.home}>Go Shopping</Link>
            </MessageBox>
          ) : (
            <ListGroup as="ul" aria-label="Cart items">
              {cartItems.map((item) => (
                <ListGroup.Item as="li" key={cartLineKey(item)} data-testid="cart-item">
                  <Row className="align-items-center g-2">
                    <Col xs={12} md={5} className="d-flex align-items-center gap-2">
                      <img src={item.image} alt={item.name} className="img-fluid rounded img-thumbnail" style={{ maxWidth: 80 }} />
                      <Link to={productLink(item)} className="shop-break">{item.name}</Link>
                      {item.variantName && <span className="d-block small">Variant: {item.variantName}</span>}
                    </Col>
                    <Col xs={6} md={3} className="d-flex align-items-center gap-2">
                      <Button
                        variant="light"
                        aria-label={`Decrease quantity of ${lineLabel(item)}`}
                        data-early={earlyKey('cart-decrease', cartLineKey(item))}
                        disabled={item.quantity <= 1}
                        onClick={() => void updateQuantity(item, item.quantity - 1)}
                      >
                        <span aria-hidden="true">−</span>
                      </Button>
                      <span aria-label={`Quantity of ${lineLabel(item)}`} aria-live="polite" className="px-1">
                        {item.quantity}
                      </span>
                      <Button
                        variant="light"
                        aria-label={`Increase quantity of ${lineLabel(item)}`}
                        data-early={earlyKey('cart-increase', cartLineKey(item))}
                        disabled={item.quantity >= item.countInStock}
                        onClick={() => void updateQuantity(item, item.quantity + 1)}
                      >
                        <span aria-hidden="true">+</span>
                      </Button>
                    </Col>
                    <Col xs={3} md={2} className="text-nowrap">
                      <span className="fw-semibold d-block" data-testid="line-total" aria-label={`Line total of ${lineLabel(item)}`}>
                        {formatMoney(roundMoney(item.price * item.quantity))}
                      </span>
                      <span className="small text-body-secondary">
                        {item.quantity} × {formatMoney(item.price)}
                      </span>
                    </Col>
                    <Col xs={3} md={2} className="text-end">
                      <Button variant="outline-danger" size="sm" aria-label={`Remove ${lineLabel(item)}`} data-early={earlyKey('cart-remove', cartLineKey(item))} onClick={() => void removeItem(item)}>
                        Remove
                      </Button>
                    </Col>
                  </Row>
                </ListGroup.Item>
              ))}
            </ListGroup>
          )}
        </Col>
        <Col md={4} className="mt-3 mt-md-0">
          <Card>
            <Card.Body>
              <ListGroup variant="flush">
                <ListGroup.Item>
                  <h2 className="h4" data-testid="cart-subtotal">
                    Subtotal ({count} items) : {formatMoney(subtotal)}
                  </h2>
                  {hasDiscount && (
                    <>
                      <div className="d-flex justify-content-between" data-testid="cart-discount">
                        <span>Discount ({discount!.code})</span>
                        <span>-{formatMoney(discount!.amount)}</span>
                      </div>
                      <div className="d-flex justify-content-between fw-semibold" data-testid="cart-after-discount">
                        <span>After discount</span>
                        <span>{formatMoney(roundMoney(subtotal - discount!.amount))}</span>
                      </div>
                    </>
                  )}
                </ListGroup.Item>
                {cartItems.length > 0 && (
                  <ListGroup.Item>
                    {isSignedIn ? <DiscountCodeBox discount={discount} /> : <p className="small text-body-secondary mb-0">Have a discount code? Sign in to use it.</p>}
                  </ListGroup.Item>
                )}
                {rates.data && cartItems.length > 0 && (
                  <ListGroup.Item className="small text-body-secondary" data-testid="cart-shipping">
                    {rates.data.summary}
                    {freeOver !== null && freeOver > 0 && (
                      <strong className="d-block">
                        {subtotal >= freeOver ? 'Your order ships free.' : `Add ${formatMoney(roundMoney(freeOver - subtotal))} more for free shipping.`}
                      </strong>
                    )}
                  </ListGroup.Item>
                )}
                <ListGroup.Item>
                  <div className="d-grid">
                    <Button type="button" variant="primary" disabled={cartItems.length === 0} data-early="checkout" onClick={() => void navigate(`${paths.signin}?redirect=${paths.shipping}`)}>
                      Proceed to Checkout
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
