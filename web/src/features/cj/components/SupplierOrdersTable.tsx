import { SUPPLIER_ORDER_STATUSES } from '@shop/contracts/supplier-constants';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { paths } from '../../../app/paths';
import { LoadingBox } from '../../../components/LoadingBox';
import { MessageBox } from '../../../components/MessageBox';
import { getErrorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useSupplierOrders } from '../api/get-supplier-orders';
import { useRetrySupplierOrder } from '../api/retry-supplier-order';
import { Pager } from './Pager';
import { describeSupplierOrder, SupplierOrderBadge } from './SupplierOrderStatus';

type Filter = 'all' | (typeof SUPPLIER_ORDER_STATUSES)[number];

/** Paid orders forwarded (or waiting to be forwarded) to the supplier, newest first, with Retry on failures. */
export function SupplierOrdersTable() {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<Filter>('all');
  const orders = useSupplierOrders({ page: String(page), status });
  const retry = useRetrySupplierOrder();

  const onRetry = (orderId: string) =>
    retry.mutate(orderId, {
      onSuccess: (res) => toast.success(res.message),
      onError: (err) => toast.error(getErrorMessage(err)),
    });

  return (
    <>
      <div className="d-flex align-items-end gap-2 mb-3">
        <div>
          <label htmlFor="cj-order-status" className="form-label small mb-1">
            Status
          </label>
          <select
            id="cj-order-status"
            className="form-select"
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as Filter);
              setPage(1);
            }}
          >
            <option value="all">All</option>
            {SUPPLIER_ORDER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s[0]!.toUpperCase() + s.slice(1)}
              </option>
            ))}
          </select>
        </div>
      </div>
      {orders.isPending ? (
        <LoadingBox />
      ) : orders.isError ? (
        <MessageBox variant="danger">{getErrorMessage(orders.error)}</MessageBox>
      ) : orders.data.data.content.length === 0 ? (
        <MessageBox>No supplier orders yet</MessageBox>
      ) : (
        <>
          <div className="table-responsive">
            <table className="table align-middle">
              <thead>
                <tr>
                  <th scope="col">Order</th>
                  <th scope="col">Date</th>
                  <th scope="col">Items</th>
                  <th scope="col">Status</th>
                  <th scope="col">Details</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {orders.data.data.content.map((o) => (
                  <tr key={o.orderId} data-testid="supplier-order-row">
                    <td className="font-monospace small">
                      <Link to={paths.admin.order(o.orderId)}>{o.orderId}</Link>
                    </td>
                    <td className="small">{formatDateTime(o.createdAt)}</td>
                    <td className="small">{o.lines.map((l) => `${l.quantity} x ${l.name}`).join(', ')}</td>
                    <td>
                      <SupplierOrderBadge status={o.status} />
                    </td>
                    <td className="small">{describeSupplierOrder(o)}</td>
                    <td>
                      {o.status === 'failed' && (
                        <button type="button" className="btn btn-outline-primary btn-sm" onClick={() => onRetry(o.orderId)} disabled={retry.isPending}>
                          Retry
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={page} pages={orders.data.data.totalPages} onPage={setPage} label="Supplier order pages" />
        </>
      )}
    </>
  );
}
