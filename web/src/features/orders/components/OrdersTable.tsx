import type { Order } from '@shop/contracts';
import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { useNavigate } from 'react-router';
import { paths } from '../../../app/paths';
import { formatMoney, formatShortDate } from '../../../lib/format';

/** A date (first 10 characters) or 'No', as the order tables show paid and delivered. */
export function dateOrNo(isDone: boolean, at: string | null): string {
  return isDone && at ? formatShortDate(at) : 'No';
}

/** The Details action of an order row: opens the order page. */
export function OrderDetailsButton({ orderId }: { orderId: string }) {
  const navigate = useNavigate();
  return (
    <Button type="button" variant="light" size="sm" onClick={() => void navigate(paths.order(orderId))} aria-label={`Details of order ${orderId}`}>
      Details
    </Button>
  );
}

/** ID, (USER,) DATE, TOTAL, PAID, DELIVERED, ACTIONS. */
export function OrdersTable({ orders, showUser = false, actions }: { orders: Order[]; showUser?: boolean; actions: (order: Order) => ReactNode }) {
  return (
    <Table responsive striped hover className="align-middle">
      <thead>
        <tr>
          <th scope="col">ID</th>
          {showUser && <th scope="col">USER</th>}
          <th scope="col">DATE</th>
          <th scope="col">TOTAL</th>
          <th scope="col">PAID</th>
          <th scope="col">DELIVERED</th>
          <th scope="col">ACTIONS</th>
        </tr>
      </thead>
      <tbody>
        {orders.map((order) => (
          <tr key={order._id} data-testid="order-row">
            <td className="text-nowrap small font-monospace">{order._id}</td>
            {showUser && <td>{order.user ? order.user.name : 'DELETED USER'}</td>}
            <td>{formatShortDate(order.createdAt)}</td>
            <td>{formatMoney(order.totalPrice)}</td>
            <td>{dateOrNo(order.isPaid, order.paidAt)}</td>
            <td>{dateOrNo(order.isDelivered, order.deliveredAt)}</td>
            <td className="text-nowrap">{actions(order)}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
