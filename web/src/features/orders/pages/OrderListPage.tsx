import type { Order } from '@shop/contracts';
import { ORDER_MESSAGES } from '@shop/contracts/constants';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { toast } from 'react-toastify';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { LoadingBox } from '../../../components/LoadingBox';
import { MessageBox } from '../../../components/MessageBox';
import { PageTitle } from '../../../components/PageTitle';
import { getErrorMessage } from '../../../lib/api-client';
import { useDeleteOrder } from '../api/delete-order';
import { useAllOrders } from '../api/get-orders';
import { OrderDetailsButton, OrdersTable } from '../components/OrdersTable';

export default function OrderListPage() {
  const orders = useAllOrders();
  const deleteOrder = useDeleteOrder();
  const [deleting, setDeleting] = useState<Order | null>(null);

  const onDelete = () => {
    if (!deleting) return;
    deleteOrder.mutate(deleting._id, {
      onSuccess: () => toast.success(ORDER_MESSAGES.deleted),
      onError: (error) => toast.error(getErrorMessage(error)),
      onSettled: () => setDeleting(null),
    });
  };

  return (
    <div>
      <PageTitle title="Orders" />
      {orders.isPending ? (
        <LoadingBox />
      ) : orders.isError ? (
        <MessageBox variant="danger">{getErrorMessage(orders.error)}</MessageBox>
      ) : orders.data.length === 0 ? (
        <MessageBox>No orders found</MessageBox>
      ) : (
        <OrdersTable
          orders={orders.data}
          showUser
          actions={(order) => (
            <div className="d-flex gap-1">
              <OrderDetailsButton orderId={order._id} />
              <Button type="button" variant="outline-danger" size="sm" onClick={() => setDeleting(order)} aria-label={`Delete order ${order._id}`}>
                Delete
              </Button>
            </div>
          )}
        />
      )}
      <ConfirmDialog show={Boolean(deleting)} title="Delete Order" isPending={deleteOrder.isPending} onConfirm={onDelete} onCancel={() => setDeleting(null)}>
        Are you sure you want to delete this order?
        {deleting && <div className="mt-2 text-body-secondary text-break">{deleting._id}</div>}
      </ConfirmDialog>
    </div>
  );
}
