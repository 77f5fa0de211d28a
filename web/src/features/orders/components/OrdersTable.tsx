import { formatOrderNumber, type Order } from '@shop/contracts';
import { shopperShipmentStatus } from '@shop/contracts/supplier-constants';
import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { useNavigate } from 'react-router';
import { paths } from '../../../lib/paths';
import { formatClockTime, formatMoney, formatShortDate } from '../../../lib/format';
import { OrderStatusBadge } from './OrderStatusBadge';

/** A date (first 10 characters) or 'No', as the order tables show paid and delivered. */
export function dateOrNo(isDone: boolean, at: string | null): string {
  return isDone && at ? formatShortDate(at) : 'No';
}

/** Delivered by the shop, or the partner's parcel reported delivered (issue 34.4: the order's own status follows the parcel). */
export const isDelivered = (order: Order): boolean => order.isDelivered || (order.shipment ? shopperShipmentStatus(order.shipment) === 'Delivered' : false);

/** Under 'No' in the PAID column: when an unpaid order expires, or that it expired. */
export function unpaidNote(order: Order): string | null {
  if (order.isPaid || !order.expiresAt) return null;
  return order.isExpired ? 'Expired' : `Expires ${formatClockTime(order.expiresAt)}`;
}

/** The Details action of an order row: opens the order page. */
export function OrderDetailsButton({ order }: { order: Pick<Order, '_id' | 'number'> }) {
  const navigate = useNavigate();
  return (
    <Button type="button" variant="light" size="sm" onClick={() => void navigate(paths.order(order._id))} aria-label={`Details of order ${formatOrderNumber(order.number)}`}>
      Details
    </Button>
  );
}

/**
 * ID (the order number, #1001), (USER,) DATE, TOTAL, PAID, DELIVERED, STATUS, ACTIONS. On a phone each order becomes a small card of
 * labelled lines (CSS `shop-stack-table`), so nothing is off-screen at 390 px.
 */
export function OrdersTable({ orders, showUser = false, actions }: { orders: Order[]; showUser?: boolean; actions: (order: Order) => ReactNode }) {
  return (
    <Table striped hover className="align-middle shop-stack-table">
      <thead>
        <tr>
          <th scope="col">ID</th>
          {showUser && <th scope="col">USER</th>}
          <th scope="col">DATE</th>
          <th scope="col">TOTAL</th>
          <th scope="col">PAID</th>
          <th scope="col">DELIVERED</th>
          <th scope="col">STATUS</th>
          <th scope="col">ACTIONS</th>
        </tr>
      </thead>
      <tbody>
        {orders.map((order) => (
          <tr key={order._id} data-testid="order-row">
            <td data-label="ID" className="text-nowrap">{formatOrderNumber(order.number)}</td>
            {showUser && <td data-label="USER" className="shop-break">{order.user ? order.user.name : 'DELETED USER'}</td>}
            <td data-label="DATE">{formatShortDate(order.createdAt)}</td>
            <td data-label="TOTAL">{formatMoney(order.totalPrice)}</td>
            <td data-label="PAID">
              {dateOrNo(order.isPaid, order.paidAt)}
              {unpaidNote(order) && (
                <span className={`d-block small ${order.isExpired ? 'text-danger' : 'text-body-secondary'}`} data-testid="order-expiry">
                  {unpaidNote(order)}
                </span>
              )}
            </td>
            <td data-label="DELIVERED">
              {dateOrNo(isDelivered(order), order.deliveredAt ?? order.shipment?.deliveredAt ?? null)}
              {!isDelivered(order) && order.shippingStatus && (
                <span className="d-block small text-success" data-testid="order-shipped">
                  {order.shippingStatus}
                </span>
              )}
              {!isDelivered(order) && !order.shippingStatus && order.isPaid && order.shipment && (
                <span className="d-block small text-body-secondary" data-testid="order-processing">Processing</span>
              )}
            </td>
            <td data-label="STATUS"><OrderStatusBadge status={order.status} /></td>
            <td data-label="ACTIONS" className="text-nowrap">{actions(order)}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
