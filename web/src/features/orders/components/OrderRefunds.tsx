import type { Refund } from '@shop/contracts';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { OrderCard } from './OrderSections';

/** The order's refunds, oldest first: when, how much, for which lines, why (pending ones: administrators only). */
export function OrderRefunds({ refunds, isAdmin }: { refunds: Refund[]; isAdmin: boolean }) {
  if (refunds.length === 0) return null;
  return (
    <OrderCard title="Refunds" className="mb-3">
      <ul className="list-group list-group-flush">
        {refunds.map((r) => (
          <li key={r._id} className="list-group-item" data-testid="refund">
            <div className="d-flex flex-wrap justify-content-between gap-2">
              <strong>
                {formatMoney(r.amount)}
                {r.isCancellation && <span className="badge text-bg-secondary ms-2">Cancellation</span>}
                {r.status === 'pending' && <span className="badge text-bg-warning ms-2">Waiting for PayPal</span>}
              </strong>
              <time className="small text-body-secondary" dateTime={r.createdAt}>{formatDateTime(r.createdAt)}</time>
            </div>
            {r.lines.length > 0 && (
              <ul className="small mb-1 ps-3">
                {r.lines.map((l) => (
                  <li key={l.orderItemId} className="shop-break">
                    {l.quantity} × {l.name}: {formatMoney(l.amount)}{isAdmin && l.restock ? ' (restocked)' : ''}
                  </li>
                ))}
              </ul>
            )}
            {r.extraAmount > 0 && <div className="small">Extra amount: {formatMoney(r.extraAmount)}</div>}
            {r.reason && <div className="small text-body-secondary shop-break">Reason: {r.reason}</div>}
          </li>
        ))}
      </ul>
    </OrderCard>
  );
}
