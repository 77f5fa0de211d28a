import { ORDER_LIST_FILTERS, type AdminOrder } from '@shop/contracts';
import { ORDER_MESSAGES } from '@shop/contracts/constants';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from '../../../lib/toast';
import { paths } from '../../../lib/paths';
import { AdminTable } from '../../../components/admin/AdminTable';
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
import { dateOrNo } from '../components/OrdersTable';
import { EmailText } from '../../../components/EmailText';

type Filter = (typeof ORDER_LIST_FILTERS)[number];
type Action = 'delete' | 'deliver' | 'undeliver';
const FILTER_LABELS: Record<Filter, string> = { all: 'All', paid: 'Paid', unpaid: 'Unpaid', delivered: 'Delivered', expired: 'Expired' };
const ACTION_TEXT: Record<Action, { title: string; label: string; body: string }> = {
  delete: { title: 'Delete Order', label: 'Delete', body: 'Are you sure you want to delete this order?' },
  deliver: { title: 'Deliver Order', label: 'Deliver', body: 'Mark this order as delivered?' },
  undeliver: { title: 'Mark as Not Delivered', label: 'Undeliver', body: 'Mark this order as not delivered?' },
};

const DEFAULTS = { filter: 'all', search: '' };

export default function OrderListPage() {
  const { page, values, update, hrefFor } = useListQueryParams(DEFAULTS);
  const filter: Filter = (ORDER_LIST_FILTERS as readonly string[]).includes(values.filter) ? (values.filter as Filter) : 'all';
  const { search } = values;
  const orders = useAllOrders({ page, filter, search });
  const deleteOrder = useDeleteOrder();
  const deliverOrder = useDeliverOrder();
  const undeliverOrder = useUndeliverOrder();
  const [pending, setPending] = useState<{ order: AdminOrder; action: Action } | null>(null);
  const [isDialogOpen, setDialogOpen] = useState(false);

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
      <div className="d-flex flex-wrap gap-2 align-items-center my-3">
        <div className="btn-group flex-wrap" role="group" aria-label="Filter orders">
          {ORDER_LIST_FILTERS.map((f) => (
            <button key={f} type="button" className={`btn btn-sm ${f === filter ? 'btn-primary' : 'btn-outline-primary'}`} aria-pressed={f === filter} onClick={() => update({ filter: f })}>
              {FILTER_LABELS[f]}
            </button>
          ))}
        </div>
        <ListSearchForm
          id="order-search"
          label="Search orders by id, customer name or e-mail"
          placeholder="Order id, customer name or e-mail"
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
            <AdminTable stacked columns={['ID', 'USER', 'EMAIL', 'DATE', 'TOTAL', 'PAID', 'DELIVERED', 'ACTIONS']} busy={orders.isPlaceholderData} className="table-striped table-hover">
              {orders.data!.orders.map((order) => (
                <tr key={order._id} data-testid="order-row">
                  <td data-label="ID" className="text-nowrap small font-monospace">{order._id}</td>
                  <td data-label="USER">{order.user ? order.user.name : 'DELETED USER'}</td>
                  <td data-label="EMAIL">{order.userEmail ? <EmailText email={order.userEmail} /> : ''}</td>
                  <td data-label="DATE" className="text-nowrap">{formatShortDate(order.createdAt)}</td>
                  <td data-label="TOTAL">{formatMoney(order.totalPrice)}</td>
                  <td data-label="PAID">{order.isExpired ? <span className="badge text-bg-secondary">Expired</span> : dateOrNo(order.isPaid, order.paidAt)}</td>
                  <td data-label="DELIVERED">{dateOrNo(order.isDelivered, order.deliveredAt)}</td>
                  <td data-label="ACTIONS" className="text-nowrap">
                    <div className="d-flex gap-1">
                      <Link to={paths.order(order._id)} className="btn btn-light btn-sm border" aria-label={`Details of order ${order._id}`}>Details</Link>
                      {order.isPaid && !order.isDelivered && (
                        <button type="button" className="btn btn-outline-success btn-sm" onClick={() => ask(order, 'deliver')} aria-label={`Deliver order ${order._id}`}>Deliver</button>
                      )}
                      {order.isDelivered && (
                        <button type="button" className="btn btn-outline-secondary btn-sm" onClick={() => ask(order, 'undeliver')} aria-label={`Undeliver order ${order._id}`}>Undeliver</button>
                      )}
                      <button type="button" className="btn btn-outline-danger btn-sm" onClick={() => ask(order, 'delete')} aria-label={`Delete order ${order._id}`}>Delete</button>
                    </div>
                  </td>
                </tr>
              ))}
            </AdminTable>
          </>
        )}
      </ListState>
      <ConfirmDialog show={isDialogOpen} title={text.title} confirmLabel={text.label} variant={pending?.action === 'delete' ? 'danger' : 'primary'} isPending={isBusy} onConfirm={() => void onConfirm()} onCancel={() => setDialogOpen(false)}>
        {text.body}
        {pending && <div className="mt-2 text-body-secondary text-break">{pending.order._id}</div>}
      </ConfirmDialog>
    </div>
  );
}
