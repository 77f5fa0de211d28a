import type { Order } from '@shop/contracts';
import Button from 'react-bootstrap/Button';
import { MessageBox } from '../../../components/MessageBox';
import { formatClockTime, formatDateTime } from '../../../lib/format';

/** Minutes an unpaid order may wait for its payment (from placing to expiry). */
export function payWithinMinutes(order: Pick<Order, 'createdAt' | 'expiresAt'>): number | null {
  if (!order.expiresAt) return null;
  return Math.max(1, Math.round((new Date(order.expiresAt).getTime() - new Date(order.createdAt).getTime()) / 60_000));
}

/**
 * What an unpaid order says about its deadline. The customer sees when to pay by, or, once it
 * expired, that it did and a button to order the same again; an administrator sees the facts in
 * back-office words.
 */
export function OrderExpiry({ order, isAdmin, onReorder, isReordering }: { order: Order; isAdmin: boolean; onReorder?: () => void; isReordering?: boolean }) {
  if (order.isPaid || order.cancelledAt || !order.expiresAt) return null;
  const until = formatClockTime(order.expiresAt);
  if (order.isExpired) {
    if (isAdmin) {
      return (
        <MessageBox variant="warning">
          Expired unpaid at {formatDateTime(order.expiresAt)}: the customer did not pay in time, the reserved stock went back on sale and the order can no longer be paid.
        </MessageBox>
      );
    }
    return (
      <div className="alert alert-warning" data-testid="order-expired">
        <p className="mb-2">This order expired at {until} because it was not paid in time. Its items went back on sale.</p>
        {onReorder && (
          <Button variant="primary" size="sm" onClick={onReorder} disabled={isReordering}>
            {isReordering ? 'Adding to cart…' : 'Order again'}
          </Button>
        )}
      </div>
    );
  }
  if (isAdmin) return <MessageBox variant="info">Awaiting payment: the order expires at {until} if the customer does not pay.</MessageBox>;
  return <MessageBox variant="info">Pay within {payWithinMinutes(order)} minutes — until {until}</MessageBox>;
}
