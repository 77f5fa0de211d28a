import type { SupplierOrder } from '@shop/contracts';
import { formatDateTime } from '../../../lib/format';

const BADGES: Record<SupplierOrder['status'], { label: string; className: string }> = {
  pending: { label: 'Pending', className: 'text-bg-warning' },
  sending: { label: 'Sending', className: 'text-bg-info' },
  sent: { label: 'Sent', className: 'text-bg-success' },
  failed: { label: 'Failed', className: 'text-bg-danger' },
};

export function SupplierOrderBadge({ status }: { status: SupplierOrder['status'] }) {
  const b = BADGES[status];
  return <span className={`badge ${b.className}`}>{b.label}</span>;
}

/** One sentence on where a supplier order stands. */
export function describeSupplierOrder(o: SupplierOrder): string {
  if (o.status === 'sent') return `Sent to CJ: CJ order ${o.cjOrderId ?? '(no id)'}${o.sentAt ? ` on ${formatDateTime(o.sentAt)}` : ''}.`;
  if (o.status === 'sending') return 'Being sent to CJ now.';
  if (o.status === 'failed') return `Failed: ${o.lastError ?? 'unknown reason'}`;
  if (o.source === 'offline') return 'Waiting: no CJ account is connected (offline catalogue). It will be sent once CJ_API_KEY is set.';
  if (o.lastError) {
    const next = o.nextAttemptAt ? ` Next attempt ${formatDateTime(o.nextAttemptAt)}.` : '';
    return `Waiting to be sent again (attempt ${o.attempts} of ${o.maxAttempts} failed: ${o.lastError}).${next}`;
  }
  return 'Waiting to be sent to CJ.';
}
