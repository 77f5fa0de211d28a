import type { OrderStatus } from '@shop/contracts';

/** Where an order stands, in words (the server's `status`). */
export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  unpaid: 'Unpaid',
  paid: 'Paid',
  partially_refunded: 'Partially refunded',
  refunded: 'Refunded',
  cancelled: 'Cancelled',
  expired: 'Expired',
  delivered: 'Delivered',
};

// Bootstrap's text-bg-* pairs keep their contrast in the light and the dark theme.
const TONES: Record<OrderStatus, string> = {
  unpaid: 'text-bg-warning',
  paid: 'text-bg-primary',
  partially_refunded: 'text-bg-info',
  refunded: 'text-bg-secondary',
  cancelled: 'text-bg-danger',
  expired: 'text-bg-secondary',
  delivered: 'text-bg-success',
};

/** The order's status as a badge; its text is the status itself, so a screen reader reads it as is. */
export function OrderStatusBadge({ status, className = '' }: { status: OrderStatus; className?: string }) {
  return (
    <span className={`badge ${TONES[status]} ${className}`.trim()} data-testid="order-status">
      {ORDER_STATUS_LABELS[status]}
    </span>
  );
}
