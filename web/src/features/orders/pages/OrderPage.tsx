import { formatOrderNumber, type Order, type OrderActionResponse, type PayOrderBody } from '@shop/contracts';
import { ORDER_MESSAGES } from '@shop/contracts/constants';
import { shopperCarrier, shopperShipmentStatus } from '@shop/contracts/supplier-constants';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import ListGroup from 'react-bootstrap/ListGroup';
import Row from 'react-bootstrap/Row';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { paths } from '../../../lib/paths';
import { toast } from '../../../lib/toast';
import { useStore } from '../../../lib/store';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { TextSkeleton } from '../../../components/Skeleton';
import { MessageBox } from '../../../components/MessageBox';
import { PageTitle } from '../../../components/PageTitle';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { applyServerCart, cartQueryKey } from '../../cart';
import { SupplierOrderPanel } from '../../cj';
import { useOrder } from '../api/get-order';
import { useDeliverOrder, usePayOrder, useUndeliverOrder } from '../api/order-actions';
import { OrderExpiry } from '../components/OrderExpiry';
import { OrderPayment } from '../components/OrderPayment';
import { useReorder } from '../api/reorder';
import { OrderCard, OrderItemsList, OrderSummaryCard, PaymentCard, ShippingCard, TrackingLink } from '../components/OrderSections';
import { CancelOrderDialog, canAdminCancel, canCustomerCancel } from '../components/CancelOrderDialog';
import { OrderRefunds } from '../components/OrderRefunds';
import { OrderStatusBadge } from '../components/OrderStatusBadge';
import { OrderTimeline } from '../components/OrderTimeline';
import { RefundDialog } from '../components/RefundDialog';
import { REFUND_PARAM } from '../lib/order-links';

export default function OrderPage() {
  const { id = '' } = useParams();
  const { state, dispatch } = useStore();
  const queryClient = useQueryClient();
  const order = useOrder(id);
  const pay = usePayOrder();
  const deliver = useDeliverOrder();
  const undeliver = useUndeliverOrder();
  const [isPayOpen, setIsPayOpen] = useState(false);
  const [searchParams, setSearchParams] = useSearchParams();
  // The admin list's Refund links here with ?refund=1: the dialog opens (once the order is known to be refundable).
  const [openDialog, setOpenDialog] = useState<'refund' | 'cancel' | null>(searchParams.get(REFUND_PARAM) === '1' ? 'refund' : null);
  const closeDialog = () => {
    setOpenDialog(null);
    if (searchParams.has(REFUND_PARAM)) setSearchParams((p) => { p.delete(REFUND_PARAM); return p; }, { replace: true });
  };
  const reorder = useReorder();
  const navigate = useNavigate();

  const user = state.userInfo;
  const isAdmin = Boolean(user?.isAdmin);

  const onPaid = () => {
    toast.success(ORDER_MESSAGES.paid);
    // The server emptied the cart when the order was paid; mirror it here.
    dispatch({ type: 'CART_CLEAR' });
    void queryClient.invalidateQueries({ queryKey: cartQueryKey });
    setIsPayOpen(false);
  };

  const payWith = async (body: PayOrderBody): Promise<OrderActionResponse | null> => {
    try {
      return await pay.mutateAsync({ id, body });
    } catch (error) {
      toast.error(getErrorMessage(error));
      return null;
    }
  };

  const onPayPalApprove = async (paypalOrderId: string) => {
    if (await payWith({ paypalOrderId })) onPaid();
  };
  const onDemoPay = async () => {
    if (await payWith({ demo: true })) onPaid();
  };
  const onTestPay = async () => {
    if (await payWith({ demo: true })) toast.success(ORDER_MESSAGES.alreadyPaid);
  };
  const [confirmDeliver, setConfirmDeliver] = useState(false);
  const onDeliver = () =>
    deliver.mutate(id, {
      onSuccess: () => toast.success(ORDER_MESSAGES.delivered),
      onError: (error) => toast.error(getErrorMessage(error)),
      onSettled: () => setConfirmDeliver(false),
    });
  const onUndeliver = () =>
    undeliver.mutate(id, {
      onSuccess: () => toast.success(ORDER_MESSAGES.undelivered),
      onError: (error) => toast.error(getErrorMessage(error)),
    });

  // "Order again": the server refills the cart from this order, then the shopper reviews it.
  const onReorder = () =>
    reorder.mutate(id, {
      onSuccess: (cart) => {
        applyServerCart(queryClient, dispatch, cart);
        void navigate(paths.cart);
      },
      onError: (error) => toast.error(getErrorMessage(error)),
    });

  if (order.isPending) return <TextSkeleton lines={8} heading />;
  if (order.isError) {
    const isMissing = order.error instanceof ApiError && order.error.status === 404;
    return <MessageBox variant="danger">{isMissing ? ORDER_MESSAGES.notFound : getErrorMessage(order.error)}</MessageBox>;
  }

  const o: Order = order.data;
  const isOwner = Boolean(user) && (!o.user || o.user._id === user?._id);
  const isCancelled = Boolean(o.cancelledAt);
  const canPay = !o.isPaid && !o.isExpired && !isCancelled && !isAdmin && isOwner;
  const canRefund = isAdmin && o.isPaid && o.status !== 'refunded' && o.status !== 'cancelled';
  const canCancel = isAdmin ? canAdminCancel(o) : isOwner && canCustomerCancel(o);
  // A parcel sent by the shop's partner: the order reads Processing, Shipped or Delivered, never "Not Delivered" beside it.
  const parcel = o.shipment && !o.cancelledAt ? shopperShipmentStatus(o.shipment) : null;
  const isBusy = pay.isPending || deliver.isPending || undeliver.isPending;

  return (
    <div>
      <div className="d-flex flex-wrap align-items-center gap-2">
        <PageTitle title={`Order ${formatOrderNumber(o.number)}`} />
        <OrderStatusBadge status={o.status} className="fs-6" />
      </div>
      <p className="small text-body-secondary shop-break">Placed {formatDateTime(o.createdAt)} · reference {o._id}</p>
      {isCancelled && (
        <MessageBox variant="warning">
          Cancelled at {formatDateTime(o.cancelledAt ?? '')}{o.cancelReason ? `: ${o.cancelReason}` : ''}
        </MessageBox>
      )}
      <Row>
        <Col md={8}>
          <ShippingCard address={o.shippingAddress}>
            {o.isDelivered ? (
              <MessageBox variant="success">Delivered at {formatDateTime(o.deliveredAt ?? '')}</MessageBox>
            ) : parcel === 'Delivered' ? (
              <MessageBox variant="success">Delivered{o.shipment?.deliveredAt ? ` at ${formatDateTime(o.shipment.deliveredAt)}` : ''}</MessageBox>
            ) : parcel === 'Shipped' && o.shipment ? (
              <MessageBox variant="info">
                Shipped{shopperCarrier(o.shipment.carrier) ? ` with ${shopperCarrier(o.shipment.carrier)}` : ''}: tracking number{' '}
                <TrackingLink parcel={o.shipment} />
              </MessageBox>
            ) : parcel === 'Processing' && o.isPaid ? (
              <MessageBox variant="info">Processing</MessageBox>
            ) : (
              <MessageBox variant="danger">Not Delivered</MessageBox>
            )}
          </ShippingCard>
          <PaymentCard method={o.paymentMethod}>
            {o.isPaid ? (
              <MessageBox variant="success">Paid at {formatDateTime(o.paidAt ?? '')}</MessageBox>
            ) : isCancelled ? (
              <MessageBox variant="warning">Not Paid: cancelled</MessageBox>
            ) : (
              <MessageBox variant="danger">Not Paid</MessageBox>
            )}
            <OrderExpiry order={o} isAdmin={isAdmin} onReorder={isOwner ? onReorder : undefined} isReordering={reorder.isPending} />
          </PaymentCard>
          <OrderCard title="Items" className="mb-3">
            <OrderItemsList items={o.orderItems} />
          </OrderCard>
          {o.isPaid && o.hasSupplierLines && <SupplierOrderPanel orderId={o._id} />}
          {o.refunds && <OrderRefunds refunds={o.refunds} isAdmin={isAdmin} />}
          {o.events && <OrderTimeline orderId={o._id} events={o.events} canAddNotes={isAdmin} />}
        </Col>
        <Col md={4}>
          <OrderSummaryCard amounts={o} currency={o.currency} className="mb-3">
            {canPay && (
              <ListGroup.Item>
                {isPayOpen ? (
                  <OrderPayment orderId={o._id} isPaying={pay.isPending} onPayPalApprove={onPayPalApprove} onDemoPay={() => void onDemoPay()} />
                ) : (
                  <div className="d-grid">
                    <Button variant="primary" onClick={() => setIsPayOpen(true)}>
                      Pay Now
                    </Button>
                  </div>
                )}
              </ListGroup.Item>
            )}
            {o.refundedAmount > 0 && (
              <ListGroup.Item className="d-flex justify-content-between">
                <span>Refunded</span>
                <span data-testid="refunded-amount">−{formatMoney(o.refundedAmount)}</span>
              </ListGroup.Item>
            )}
            {isAdmin && !o.isPaid && !o.isExpired && !isCancelled && (
              <ListGroup.Item className="d-grid">
                <Button variant="outline-primary" onClick={() => void onTestPay()} disabled={isBusy}>
                  Test Pay Order
                </Button>
              </ListGroup.Item>
            )}
            {isAdmin && o.isPaid && !o.isDelivered && !isCancelled && o.status !== 'refunded' && (
              <ListGroup.Item className="d-grid">
                <Button variant="primary" onClick={() => setConfirmDeliver(true)} disabled={isBusy}>
                  Deliver Order
                </Button>
              </ListGroup.Item>
            )}
            {isAdmin && o.isDelivered && (
              <ListGroup.Item className="d-grid">
                <Button variant="outline-danger" onClick={onUndeliver} disabled={isBusy}>
                  Mark as Not Delivered
                </Button>
              </ListGroup.Item>
            )}
            {canRefund && (
              <ListGroup.Item className="d-grid">
                <Button variant="outline-danger" onClick={() => setOpenDialog('refund')} disabled={isBusy}>
                  Refund
                </Button>
              </ListGroup.Item>
            )}
            {canCancel && (
              <ListGroup.Item className="d-grid">
                <Button variant="outline-danger" onClick={() => setOpenDialog('cancel')} disabled={isBusy}>
                  Cancel order
                </Button>
              </ListGroup.Item>
            )}
          </OrderSummaryCard>
        </Col>
      </Row>
      <ConfirmDialog show={confirmDeliver} title="Deliver Order" confirmLabel="Deliver Order" variant="primary" isPending={deliver.isPending}
        onConfirm={onDeliver} onCancel={() => setConfirmDeliver(false)}>
        Mark order {formatOrderNumber(o.number)} as delivered? The customer sees it as delivered on their order page.
      </ConfirmDialog>
      {openDialog === 'refund' && canRefund && <RefundDialog order={o} onClose={closeDialog} />}
      {openDialog === 'cancel' && canCancel && <CancelOrderDialog order={o} isAdmin={isAdmin} onClose={closeDialog} />}
    </div>
  );
}
