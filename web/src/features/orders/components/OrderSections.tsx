import type { OrderShippingAddress, Shipment } from '@shop/contracts';
import { shopperCarrier, shopperShipmentStatus, trackingUrlFor } from '@shop/contracts/supplier-constants';
import type { ReactNode } from 'react';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import ListGroup from 'react-bootstrap/ListGroup';
import Row from 'react-bootstrap/Row';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import type { CartItem } from '../../../lib/store';
import { formatMoney } from '../../../lib/format';

/* The sections shared by the order preview (checkout) and the order page. */

/** A titled card of the order and order preview pages. */
export function OrderCard({ title, className, children }: { title: string; className?: string; children: ReactNode }) {
  return (
    <Card className={className}>
      <Card.Body>
        <Card.Title as="h2" className="h5">
          {title}
        </Card.Title>
        {children}
      </Card.Body>
    </Card>
  );
}

/** Shipping: the name and address, then `children` (an Edit link or the delivery status). */
export function ShippingCard({ address: a, children }: { address: OrderShippingAddress; children: ReactNode }) {
  return (
    <OrderCard title="Shipping" className="mb-3">
      <Card.Text className="shop-break">
        <strong>Name:</strong> {a.fullName}
        <br />
        <strong>Address:</strong> {a.address}, {a.city}, {a.postalCode}, {a.country}
      </Card.Text>
      {children}
    </OrderCard>
  );
}

/** Payment: the method, then `children` (an Edit link or the payment status). */
export function PaymentCard({ method, children }: { method: string; children: ReactNode }) {
  return (
    <OrderCard title="Payment" className="mb-3">
      <Card.Text>
        <strong>Method:</strong> {method}
      </Card.Text>
      {children}
    </OrderCard>
  );
}

/** An order line, or a cart line being ordered (saved supplier (CJ) products link to their own page). */
export type OrderLine = Pick<CartItem, '_id' | 'name' | 'slug' | 'image' | 'quantity' | 'price' | 'cjData'> & {
  variantId?: string | null;
  variantName?: string | null;
  /** Supplier lines of a placed order: carrier, tracking number and status as the supplier reports them. */
  tracking?: Shipment | null;
  /** Units of a placed order's line refunded so far. */
  refundedQuantity?: number;
};

/** A tracking number linked to a public tracking page (new tab). */
export function TrackingLink({ parcel }: { parcel: Pick<Shipment, 'trackingNumber' | 'trackingUrl'> }) {
  if (!parcel.trackingNumber) return null;
  return (
    <a href={parcel.trackingUrl ?? trackingUrlFor(parcel.trackingNumber)} target="_blank" rel="noopener noreferrer" className="font-monospace">
      {parcel.trackingNumber}
      <span className="visually-hidden"> (track the parcel, opens in a new tab)</span>
    </a>
  );
}

/**
 * Where a parcel is, in the shop's words (issue 34.4): Processing, Shipped with the carrier and a
 * tracking link, or Delivered; never the supplier's raw states or its own service names.
 */
export function ParcelLine({ parcel }: { parcel: Shipment }) {
  const status = shopperShipmentStatus(parcel);
  const carrier = shopperCarrier(parcel.carrier);
  return (
    <span className="d-block small text-body-secondary" data-testid="line-tracking">
      {status === 'Processing' ? (
        'Processing'
      ) : (
        <>
          {status}
          {carrier ? ` with ${carrier}` : ''}
          {parcel.trackingNumber && (
            <>
              : tracking number <TrackingLink parcel={parcel} />
            </>
          )}
        </>
      )}
    </span>
  );
}

/** The lines of an order (or of the cart being ordered): image, linked name, quantity, unit price. */
export function OrderItemsList({ items }: { items: readonly OrderLine[] }) {
  return (
    <ListGroup variant="flush">
      {items.map((item) => (
        <ListGroup.Item key={item.variantId ? `${item._id}:${item.variantId}` : item._id}>
          <Row className="align-items-center g-2">
            <Col xs={12} md={6} className="d-flex align-items-center gap-2">
              <img src={item.image} alt={item.name} className="img-fluid rounded img-thumbnail" style={{ maxWidth: 64 }} />
              <span>
                {/* An order line does not say whose product it was: the product page sends a supplier product to its own page. */}
                <Link to={item.cjData ? paths.cjProduct(item.slug) : paths.product(item.slug)} className="shop-break">{item.name}</Link>
                {item.variantName && <span className="d-block small">Variant: {item.variantName}</span>}
                {item.refundedQuantity ? <span className="d-block small text-body-secondary" data-testid="line-refunded">{item.refundedQuantity} refunded</span> : null}
                {item.tracking && <ParcelLine parcel={item.tracking} />}
              </span>
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
  );
}

function SummaryRow({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <ListGroup.Item>
      <Row>
        <Col>{label}</Col>
        <Col className="text-end">{children}</Col>
      </Row>
    </ListGroup.Item>
  );
}

export interface OrderAmounts {
  itemsPrice: number;
  shippingPrice: number;
  taxPrice: number;
  totalPrice: number;
  /** A discount code's line (issue 34.1): shown when a code was used. */
  discountCode?: string | null | undefined;
  discountPrice?: number | undefined;
}

/** Order Summary: items, shipping, tax and total, then `children` (the actions, as list items). */
export function OrderSummaryCard({
  amounts,
  currency,
  className,
  children,
}: {
  amounts: OrderAmounts;
  currency: string;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <OrderCard title="Order Summary" className={className}>
      <ListGroup variant="flush">
        <SummaryRow label="Items">{formatMoney(amounts.itemsPrice)}</SummaryRow>
        {amounts.discountCode && (
          <SummaryRow label={<>Discount <span className="badge text-bg-success" data-testid="discount-code">{amounts.discountCode}</span></>}>
            <span data-testid="discount-amount">-{formatMoney(amounts.discountPrice ?? 0)}</span>
          </SummaryRow>
        )}
        <SummaryRow label="Shipping">{formatMoney(amounts.shippingPrice)}</SummaryRow>
        <SummaryRow label="Tax">{formatMoney(amounts.taxPrice)}</SummaryRow>
        <SummaryRow label={<strong>Order Total</strong>}>
          <strong>{formatMoney(amounts.totalPrice)}</strong> <span className="small text-body-secondary">{currency}</span>
        </SummaryRow>
        {children}
      </ListGroup>
    </OrderCard>
  );
}
