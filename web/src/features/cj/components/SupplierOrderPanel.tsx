import { useStore } from '../../../lib/store';
import { getErrorMessage } from '../../../lib/api-client';
import { useSupplierOrder } from '../api/get-supplier-order';
import { useRefreshTracking } from '../api/refresh-tracking';
import { useRetrySupplierOrder } from '../api/retry-supplier-order';
import { toast } from '../../../lib/toast';
import { describeSupplierOrder, SupplierOrderBadge } from './SupplierOrderStatus';

/**
 * The admin order page's supplier part: where the order's supplier lines stand at CJ (pending, sent
 * with CJ's order id, failed with the reason and a Retry button). Nothing for customers, nor for
 * orders without supplier products.
 */
export function SupplierOrderPanel({ orderId }: { orderId: string }) {
  const { state } = useStore();
  const isAdmin = Boolean(state.userInfo?.isAdmin);
  const { data, error } = useSupplierOrder(orderId, isAdmin);
  const retry = useRetrySupplierOrder();
  const refresh = useRefreshTracking();
  if (!isAdmin || !data) return null;
  return (
    <section className="card mb-3" aria-labelledby="supplier-order-heading" data-testid="supplier-order-panel">
      <div className="card-body">
        <h2 id="supplier-order-heading" className="h5 d-flex align-items-center gap-2">
          Supplier order <SupplierOrderBadge status={data.status} />
        </h2>
        <p className="mb-2" role="status">
          {describeSupplierOrder(data)}
        </p>
        <ul className="small mb-2 text-break">
          {data.lines.map((l) => (
            <li key={`${l.productId}-${l.vid}`}>
              {l.quantity} x {l.name} <span className="text-body-secondary">(variant {l.vid})</span>
            </li>
          ))}
        </ul>
        {data.shipment && (
          <dl className="small mb-2 row g-1" data-testid="supplier-shipment">
            <dt className="col-5 col-sm-3">Status</dt>
            <dd className="col-7 col-sm-9 mb-0">{data.shipment.status}</dd>
            <dt className="col-5 col-sm-3">Carrier</dt>
            <dd className="col-7 col-sm-9 mb-0">{data.shipment.carrier ?? '—'}</dd>
            <dt className="col-5 col-sm-3">Tracking number</dt>
            <dd className="col-7 col-sm-9 mb-0 text-break">{data.shipment.trackingNumber ?? 'Not yet'}</dd>
            <dt className="col-5 col-sm-3">Checked</dt>
            <dd className="col-7 col-sm-9 mb-0">{new Date(data.shipment.checkedAt).toLocaleString()}</dd>
          </dl>
        )}
        {data.status === 'sent' && (
          <button
            type="button"
            className="btn btn-outline-primary btn-sm me-2"
            disabled={refresh.isPending}
            onClick={() =>
              refresh.mutate(orderId, {
                onSuccess: (order) =>
                  toast.success(order.shipment?.trackingNumber ? `Tracking refreshed: ${order.shipment.trackingNumber}` : 'Tracking refreshed: no tracking number yet'),
                onError: (err) => toast.error(getErrorMessage(err)),
              })
            }
          >
            Refresh tracking
          </button>
        )}
        {data.status === 'failed' && (
          <button type="button" className="btn btn-outline-primary btn-sm" onClick={() => retry.mutate(orderId)} disabled={retry.isPending}>
            Retry
          </button>
        )}
        {retry.isError && (
          <div className="alert alert-danger mt-2 mb-0" role="alert">
            {getErrorMessage(retry.error)}
          </div>
        )}
        {error && <p className="text-danger small mb-0">{getErrorMessage(error)}</p>}
      </div>
    </section>
  );
}
