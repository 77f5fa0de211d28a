import { SUPPLIER_ORDER_STATUSES } from '@shop/contracts/supplier-constants';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from '../../../lib/toast';
import { paths } from '../../../lib/paths';
import { AdminTable } from '../../../components/admin/AdminTable';
import { FilterSelect } from '../../../components/admin/FilterSelect';
import { ListState } from '../../../components/admin/ListState';
import { getErrorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useSupplierOrders } from '../api/get-supplier-orders';
import { useRetrySupplierOrder } from '../api/retry-supplier-order';
import { Pager } from '../../../components/Pager';
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
        <FilterSelect
          id="cj-order-status"
          label="Status"
          value={status}
          onChange={(next) => {
            setStatus(next as Filter);
            setPage(1);
          }}
          options={[['all', 'All'], ...SUPPLIER_ORDER_STATUSES.map((s) => [s, s[0]!.toUpperCase() + s.slice(1)] as const)]}
        />
      </div>
      <ListState isPending={orders.isPending} error={orders.error} isEmpty={!orders.data || orders.data.data.content.length === 0} empty="No supplier orders yet">
        {() => (
          <>
            <AdminTable columns={['Order', 'Date', 'Items', 'Status', 'Details', 'Actions']} className="">
              {orders.data!.data.content.map((o) => (
                <tr key={o.orderId} data-testid="supplier-order-row">
                  <td className="small">
                    {/* Our number names the order; CJ knows it by its id, shown under it. */}
                    <Link to={paths.admin.order(o.orderId)}>{o.orderNumber ? `#${o.orderNumber}` : o.orderId}</Link>
                    {o.orderNumber ? <span className="d-block font-monospace text-body-secondary shop-break">{o.orderId}</span> : null}
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
            </AdminTable>
            <Pager page={page} pages={orders.data!.data.totalPages} onPage={setPage} label="Supplier order pages" />
          </>
        )}
      </ListState>
    </>
  );
}
