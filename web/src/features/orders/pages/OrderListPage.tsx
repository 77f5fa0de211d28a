import { ORDER_LIST_FILTERS, type AdminOrder } from '@shop/contracts';
import { ORDER_MESSAGES } from '@shop/contracts/constants';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { toast } from 'react-toastify';
import { paths } from '../../../app/paths';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { LoadingBox } from '../../../components/LoadingBox';
import { MessageBox } from '../../../components/MessageBox';
import { PageTitle } from '../../../components/PageTitle';
import { Paginator } from '../../../components/Paginator';
import { getErrorMessage } from '../../../lib/api-client';
import { formatMoney, formatShortDate } from '../../../lib/format';
import { useDeleteOrder } from '../api/delete-order';
import { useAllOrders } from '../api/get-orders';
import { useDeliverOrder, useUndeliverOrder } from '../api/order-actions';
import { dateOrNo } from '../components/OrdersTable';

type Filter = (typeof ORDER_LIST_FILTERS)[number];
type Action = 'delete' | 'deliver' | 'undeliver';
const FILTER_LABELS: Record<Filter, string> = { all: 'All', paid: 'Paid', unpaid: 'Unpaid', delivered: 'Delivered', expired: 'Expired' };
const ACTION_TEXT: Record<Action, { title: string; label: string; body: string }> = {
  delete: { title: 'Delete Order', label: 'Delete', body: 'Are you sure you want to delete this order?' },
  deliver: { title: 'Deliver Order', label: 'Deliver', body: 'Mark this order as delivered?' },
  undeliver: { title: 'Mark as Not Delivered', label: 'Undeliver', body: 'Mark this order as not delivered?' },
};

function listUrl(page: number, filter: Filter, search: string): string {
  const qs = new URLSearchParams();
  if (filter !== 'all') qs.set('filter', filter);
  if (search) qs.set('search', search);
  if (page > 1) qs.set('page', String(page));
  const s = qs.toString();
  return s ? `${paths.admin.orders}?${s}` : paths.admin.orders;
}

export default function OrderListPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const page = Math.max(1, Number(searchParams.get('page')) || 1);
  const rawFilter = searchParams.get('filter') ?? 'all';
  const filter: Filter = (ORDER_LIST_FILTERS as readonly string[]).includes(rawFilter) ? (rawFilter as Filter) : 'all';
  const search = searchParams.get('search') ?? '';
  const [draft, setDraft] = useState(search);
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

  const setFilter = (next: Filter) => setSearchParams(new URLSearchParams(listUrl(1, next, search).split('?')[1] ?? ''));
  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    setSearchParams(new URLSearchParams(listUrl(1, filter, draft.trim()).split('?')[1] ?? ''));
  };
  const isBusy = deleteOrder.isPending || deliverOrder.isPending || undeliverOrder.isPending;
  const text = pending ? ACTION_TEXT[pending.action] : ACTION_TEXT.delete;

  return (
    <div>
      <PageTitle title="Orders" />
      <div className="d-flex flex-wrap gap-2 align-items-center my-3">
        <div className="btn-group flex-wrap" role="group" aria-label="Filter orders">
          {ORDER_LIST_FILTERS.map((f) => (
            <button key={f} type="button" className={`btn btn-sm ${f === filter ? 'btn-primary' : 'btn-outline-primary'}`} aria-pressed={f === filter} onClick={() => setFilter(f)}>
              {FILTER_LABELS[f]}
            </button>
          ))}
        </div>
        <form role="search" className="d-flex gap-2 flex-grow-1" onSubmit={onSearch}>
          <label htmlFor="order-search" className="visually-hidden">Search orders by id, customer name or e-mail</label>
          <input id="order-search" type="search" className="form-control form-control-sm" placeholder="Order id, customer name or e-mail" value={draft} maxLength={200} onChange={(e) => setDraft(e.target.value)} />
          <button type="submit" className="btn btn-sm btn-outline-primary">Search</button>
        </form>
      </div>
      {orders.isPending ? (
        <LoadingBox />
      ) : orders.isError ? (
        <MessageBox variant="danger">{getErrorMessage(orders.error)}</MessageBox>
      ) : orders.data.orders.length === 0 ? (
        <MessageBox>No orders found</MessageBox>
      ) : (
        <>
          <p className="text-body-secondary small mb-2">{orders.data.countOrders} orders</p>
          <div className="table-responsive">
            <table className="table table-striped table-hover align-middle" aria-busy={orders.isPlaceholderData}>
              <thead>
                <tr>
                  <th scope="col">ID</th>
                  <th scope="col">USER</th>
                  <th scope="col">EMAIL</th>
                  <th scope="col">DATE</th>
                  <th scope="col">TOTAL</th>
                  <th scope="col">PAID</th>
                  <th scope="col">DELIVERED</th>
                  <th scope="col">ACTIONS</th>
                </tr>
              </thead>
              <tbody>
                {orders.data.orders.map((order) => (
                  <tr key={order._id} data-testid="order-row">
                    <td className="text-nowrap small font-monospace">{order._id}</td>
                    <td>{order.user ? order.user.name : 'DELETED USER'}</td>
                    <td className="text-break">{order.userEmail ?? ''}</td>
                    <td className="text-nowrap">{formatShortDate(order.createdAt)}</td>
                    <td>{formatMoney(order.totalPrice)}</td>
                    <td>{order.isExpired ? <span className="badge text-bg-secondary">Expired</span> : dateOrNo(order.isPaid, order.paidAt)}</td>
                    <td>{dateOrNo(order.isDelivered, order.deliveredAt)}</td>
                    <td className="text-nowrap">
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
              </tbody>
            </table>
          </div>
          <Paginator page={page} pages={orders.data.pages} hrefFor={(n) => listUrl(n, filter, search)} label="Order pages" />
        </>
      )}
      <ConfirmDialog show={isDialogOpen} title={text.title} confirmLabel={text.label} variant={pending?.action === 'delete' ? 'danger' : 'primary'} isPending={isBusy} onConfirm={() => void onConfirm()} onCancel={() => setDialogOpen(false)}>
        {text.body}
        {pending && <div className="mt-2 text-body-secondary text-break">{pending.order._id}</div>}
      </ConfirmDialog>
    </div>
  );
}
