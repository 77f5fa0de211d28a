import { formatOrderNumber, ORDER_STATUSES, type AdminOrder, type OrderStatus } from '@shop/contracts';
import { ORDER_MESSAGES } from '@shop/contracts/constants';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from '../../../lib/toast';
import { paths } from '../../../lib/paths';
import { AdminTable } from '../../../components/admin/AdminTable';
import { FilterSelect } from '../../../components/admin/FilterSelect';
import { ListSearchForm } from '../../../components/admin/ListSearchForm';
import { ListState } from '../../../components/admin/ListState';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { PageTitle } from '../../../components/PageTitle';
import { getErrorMessage } from '../../../lib/api-client';
import { formatMoney, formatShortDate } from '../../../lib/format';
import { useListQueryParams } from '../../../lib/use-list-query-params';
import { useDeleteOrder } from '../api/delete-order';
import { useAllOrders } from '../api/get-orders';
import { useDeliverOrder, useUndeliverOrder } from '../api/order-actions';
import { CancelOrderDialog, canAdminCancel } from '../components/CancelOrderDialog';
import { ORDER_STATUS_LABELS, OrderStatusBadge } from '../components/OrderStatusBadge';
import { dateOrNo } from '../components/OrdersTable';
import { REFUND_PARAM } from '../lib/order-links';
import { EmailText } from '../../../components/EmailText';

type StatusFilter = 'all' | OrderStatus;
type Action = 'delete' | 'deliver' | 'undeliver';
const STATUS_OPTIONS: ReadonlyArray<readonly [StatusFilter, string]> = [['all', 'All'], ...ORDER_STATUSES.map((s) => [s, ORDER_STATUS_LABELS[s]] as const)];
const ACTION_TEXT: Record<Action, { title: string; label: string; body: string }> = {
  delete: { title: 'Delete Order', label: 'Delete', body: 'Are you sure you want to delete this order?' },
  deliver: { title: 'Deliver Order', label: 'Deliver', body: 'Mark this order as delivered?' },
  undeliver: { title: 'Mark as Not Delivered', label: 'Undeliver', body: 'Mark this order as not delivered?' },
};

/** The order took money that is still kept: it is refunded or cancelled, never deleted (the server says 409 too). */
export const holdsMoney = (o: AdminOrder) => o.isPaid && o.status !== 'refunded' && o.status !== 'cancelled';

const DEFAULTS = { status: 'all', search: '' };

export default function OrderListPage() {
  const { page, values, update, hrefFor } = useListQueryParams(DEFAULTS);
  const status: StatusFilter = (ORDER_STATUSES as readonly string[]).includes(values.status) ? (values.status as OrderStatus) : 'all';
  const { search } = values;
  const orders = useAllOrders({ page, status, search });
  const deleteOrder = useDeleteOrder();
  const deliverOrder = useDeliverOrder();
  const undeliverOrder = useUndeliverOrder();
  const [pending, setPending] = useState<{ order: AdminOrder; action: Action } | null>(null);
  const [isDialogOpen, setDialogOpen] = useState(false);
  const [cancelling, setCancelling] = useState<AdminOrder | null>(null);

  const ask = (order: AdminOrder, action: Action) => {
    setPending({ order, action });
    setDialogOpen(true);
  };

  const onConfirm = async () => {
    if (!pending) return;
    const { order, action } = pending;
    try {
      if (action === 'delete') {
        await deleteOrder.mutateAsync(order._id);
        toast.success(ORDER_MESSAGES.deleted);
      } else if (action === 'deliver') {
        await deliverOrder.mutateAsync(order._id);
        toast.success(ORDER_MESSAGES.delivered);
      } else {
        await undeliverOrder.mutateAsync(order._id);
        toast.success(ORDER_MESSAGES.undelivered);
      }
    } catch (error) {
      toast.error(getErrorMessage(error));
    } finally {
      setDialogOpen(false);
    }
  };

  const isBusy = deleteOrder.isPending || deliverOrder.isPending || undeliverOrder.isPending;
  const text = pending ? ACTION_TEXT[pending.action] : ACTION_TEXT.delete;

  return (
    <div>
      <PageTitle title="Orders" />
      <div className="d-flex flex-wrap gap-2 align-items-end my-3">
        <FilterSelect id="order-status" label="Status" value={status} options={STATUS_OPTIONS} onChange={(s) => update({ status: s })} />
        <ListSearchForm
          id="order-search"
          label="Search orders by number, id, customer name or e-mail"
          placeholder="#1001, order id, customer name or e-mail"
          value={search}
          onSearch={(text) => update({ search: text })}
          small
          className="d-flex gap-2 flex-grow-1"
        />
      </div>
      <ListState
        isPending={orders.isPending}
        error={orders.error}
        isEmpty={!orders.data || orders.data.orders.length === 0}
        empty="No orders found"
        paging={orders.data && { page, pages: orders.data.pages, hrefFor, label: 'Order pages' }}
      >
        {() => (
          <>
            <p className="text-body-secondary small mb-2">{orders.data!.countOrders} orders</p>
            <AdminTable stacked columns={['NUMBER', 'USER', 'EMAIL', 'DATE', 'TOTAL', 'PAID', 'DELIVERED', 'STATUS', 'ACTIONS']} busy={orders.isPlaceholderData} className="table-striped table-hover">
              {orders.data!.orders.map((order) => {
                const name = formatOrderNumber(order.number);
                return (
                  <tr key={order._id} data-testid="order-row">
                    <td data-label="NUMBER" className="text-nowrap">{name}</td>
                    <td data-label="USER">{order.user ? order.user.name : 'DELETED USER'}</td>
                    <td data-label="EMAIL">{order.userEmail ? <EmailText email={order.userEmail} /> : ''}</td>
                    <td data-label="DATE" className="text-nowrap">{formatShortDate(order.createdAt)}</td>
                    <td data-label="TOTAL">
                      {formatMoney(order.totalPrice)}
                      {order.refundedAmount > 0 && <span className="d-block small text-body-secondary">−{formatMoney(order.refundedAmount)} refunded</span>}
                    </td>
                    <td data-label="PAID">{dateOrNo(order.isPaid, order.paidAt)}</td>
                    <td data-label="DELIVERED">{dateOrNo(order.isDelivered, order.deliveredAt)}</td>
                    <td data-label="STATUS"><OrderStatusBadge status={order.status} /></td>
                    <td data-label="ACTIONS" className="text-nowrap">
                      <div className="d-flex flex-wrap gap-1">
                        <Link to={paths.order(order._id)} className="btn btn-light btn-sm border" aria-label={`Details of order ${name}`}>Details</Link>
                        {order.isPaid && !order.isDelivered && !order.cancelledAt && order.status !== 'refunded' && (
                          <button type="button" className="btn btn-outline-success btn-sm" onClick={() => ask(order, 'deliver')} aria-label={`Deliver order ${name}`}>Deliver</button>
                        )}
                        {order.isDelivered && !order.cancelledAt && (
                          <button type="button" className="btn btn-outline-secondary btn-sm" onClick={() => ask(order, 'undeliver')} aria-label={`Undeliver order ${name}`}>Undeliver</button>
                        )}
                        {holdsMoney(order) ? (
                          <>
                            <Link to={`${paths.order(order._id)}?${REFUND_PARAM}=1`} className="btn btn-outline-danger btn-sm" aria-label={`Refund order ${name}`}>Refund</Link>
                            {canAdminCancel(order) && (
                              <button type="button" className="btn btn-outline-danger btn-sm" onClick={() => setCancelling(order)} aria-label={`Cancel order ${name}`}>Cancel</button>
                            )}
                          </>
                        ) : (
                          <>
                            {canAdminCancel(order) && (
                              <button type="button" className="btn btn-outline-secondary btn-sm" onClick={() => setCancelling(order)} aria-label={`Cancel order ${name}`}>Cancel</button>
                            )}
                            <button type="button" className="btn btn-outline-danger btn-sm" onClick={() => ask(order, 'delete')} aria-label={`Delete order ${name}`}>Delete</button>
                          </>
                        )}
                      </div>
                    </td>
                  </tr>
                );
              })}
            </AdminTable>
          </>
        )}
      </ListState>
      <ConfirmDialog show={isDialogOpen} title={text.title} confirmLabel={text.label} variant={pending?.action === 'delete' ? 'danger' : 'primary'} isPending={isBusy} onConfirm={() => void onConfirm()} onCancel={() => setDialogOpen(false)}>
        {text.body}
        {pending && <div className="mt-2 text-body-secondary text-break">Order {formatOrderNumber(pending.order.number)}</div>}
      </ConfirmDialog>
      {cancelling && <CancelOrderDialog order={cancelling} isAdmin onClose={() => setCancelling(null)} />}
    </div>
  );
}
