import { formatOrderNumber, REFUND_REASON_MAX, type Order } from '@shop/contracts';
import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { getErrorMessage } from '../../../lib/api-client';
import { formatMoney } from '../../../lib/format';
import { useIdempotencyKey } from '../../../lib/idempotency';
import { toast } from '../../../lib/toast';
import { useCancelOrder } from '../api/cancel-order';

/** Whether an administrator may cancel the order: not delivered, not cancelled, not expired. */
export const canAdminCancel = (o: Order) => !o.cancelledAt && !o.isDelivered && !o.isExpired;
/** Whether its customer may cancel it: their own unpaid order, not expired or cancelled. */
export const canCustomerCancel = (o: Order) => o.status === 'unpaid' && !o.isPaid && !o.isExpired && !o.cancelledAt;

/**
 * The Cancel order confirmation (mounted for each opening). Unpaid: the stock goes back on sale.
 * Paid (administrators): everything still paid is refunded in the same step, and a supplier order is
 * withdrawn first. The server's refusals (the supplier has shipped, PayPal unreachable) are shown
 * in the dialog; a retry of the same request carries the same Idempotency-Key.
 */
export function CancelOrderDialog({ order, isAdmin, onClose }: { order: Order; isAdmin: boolean; onClose: () => void }) {
  const cancel = useCancelOrder();
  const keyFor = useIdempotencyKey();
  const [reason, setReason] = useState('');
  const [serverError, setServerError] = useState<string | null>(null);
  const name = formatOrderNumber(order.number);
  const refundsCents = order.isPaid ? Math.round(order.totalPrice * 100) - Math.round(order.refundedAmount * 100) : 0;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (cancel.isPending) return;
    const body = reason.trim() ? { reason: reason.trim() } : {};
    try {
      await cancel.mutateAsync({ id: order._id, body, idempotencyKey: keyFor(body) });
      toast.success(`Order ${name} is cancelled`);
      onClose();
    } catch (error) {
      setServerError(getErrorMessage(error));
    }
  };

  return (
    <Modal show onHide={cancel.isPending ? () => undefined : onClose} centered aria-labelledby="cancel-dialog-title">
      <Form noValidate onSubmit={(e) => void onSubmit(e)}>
        <Modal.Header closeButton>
          <Modal.Title id="cancel-dialog-title" as="h2" className="h5">Cancel order {name}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {order.isPaid ? (
            <p data-testid="cancel-effect">
              Cancel order {name}? It is <strong>refunded in full</strong>: {formatMoney(refundsCents / 100)} goes back to the customer
              {order.paymentResult?.provider === 'paypal' ? ' through PayPal' : ' (a demo payment: no money moves)'}.
              {order.hasSupplierLines && ' Its supplier order is withdrawn first; if the supplier has already shipped it, the cancel is refused: refund instead.'}
            </p>
          ) : (
            <p data-testid="cancel-effect">
              Cancel order {name}? {isAdmin ? 'Its items go back on sale and' : 'Nothing was charged; its items go back on sale and'} it can no longer be paid.
            </p>
          )}
          <Form.Group controlId="cancel-reason">
            <Form.Label>Reason (optional)</Form.Label>
            <Form.Control as="textarea" rows={2} maxLength={REFUND_REASON_MAX} value={reason} onChange={(e) => { setReason(e.target.value); setServerError(null); }} />
          </Form.Group>
          {serverError && <Alert variant="danger" className="mt-3 mb-0" role="alert">{serverError}</Alert>}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onClose} disabled={cancel.isPending}>Keep order</Button>
          <Button type="submit" variant="danger" disabled={cancel.isPending}>{cancel.isPending ? 'Cancelling…' : 'Cancel order'}</Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
