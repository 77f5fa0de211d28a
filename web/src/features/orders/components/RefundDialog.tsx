import { formatOrderNumber, REFUND_REASON_MAX, type Order } from '@shop/contracts';
import { ORDER_MESSAGES } from '@shop/contracts/constants';
import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import { getErrorMessage } from '../../../lib/api-client';
import { formatMoney } from '../../../lib/format';
import { useIdempotencyKey } from '../../../lib/idempotency';
import { toast } from '../../../lib/toast';
import { useRefundOrder } from '../api/refund-order';
import { fullRefundForm, initialRefundForm, planRefund, refundableQuantity, remainingCents, type RefundForm } from '../lib/refund-form';

/**
 * The Refund dialog (administrators; mounted for each opening): per line the units to refund and
 * whether to restock them, an extra amount (shipping, goodwill), a reason; the total is worked out as
 * it is typed and never above what is left. The server has the last word (its message is shown, e.g.
 * PayPal's refusal); the same request sent again carries the same Idempotency-Key.
 */
export function RefundDialog({ order, onClose }: { order: Order; onClose: () => void }) {
  const refund = useRefundOrder();
  const keyFor = useIdempotencyKey();
  const [form, setForm] = useState<RefundForm>(() => initialRefundForm(order));
  const [isSubmitted, setSubmitted] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const plan = planRefund(order, form);
  const left = remainingCents(order);
  const name = formatOrderNumber(order.number);
  // Before the first try only what is already wrong is said; a missing reason or an empty refund after it.
  const shown = (field: string) => (isSubmitted || (field !== 'reason' && !(field === 'total' && plan.totalCents <= 0)) ? plan.errors[field] : undefined);

  const update = (change: Partial<RefundForm>) => {
    setForm((f) => ({ ...f, ...change }));
    setServerError(null);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (!plan.body || refund.isPending) return;
    try {
      const res = await refund.mutateAsync({ id: order._id, body: plan.body, idempotencyKey: keyFor(plan.body) });
      toast.success(`${ORDER_MESSAGES.refunded}: ${formatMoney(res.refund.amount)} for order ${name}`);
      onClose();
    } catch (error) {
      setServerError(getErrorMessage(error));
    }
  };

  return (
    <Modal show onHide={refund.isPending ? () => undefined : onClose} centered size="lg" aria-labelledby="refund-dialog-title">
      <Form noValidate onSubmit={(e) => void onSubmit(e)}>
        <Modal.Header closeButton>
          <Modal.Title id="refund-dialog-title" as="h2" className="h5">Refund order {name}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="small text-body-secondary">
            Paid {formatMoney(order.totalPrice)}, refunded so far {formatMoney(order.refundedAmount)}: <strong>{formatMoney(left / 100)}</strong> left to refund.
            {order.paymentResult?.provider === 'paypal' ? ' The money goes back through PayPal.' : ' A demo payment is refunded as demo: no money moves.'}
          </p>
          <Table size="sm" className="align-middle shop-stack-table">
            <thead>
              <tr>
                <th scope="col">ITEM</th>
                <th scope="col">PRICE</th>
                <th scope="col">REFUND</th>
                <th scope="col">RESTOCK</th>
              </tr>
            </thead>
            <tbody>
              {order.orderItems.map((item) => {
                const max = refundableQuantity(item);
                const error = shown(`quantity:${item._id}`);
                const inputId = `refund-qty-${item._id}`;
                return (
                  <tr key={item._id} data-testid="refund-line">
                    <td data-label="ITEM" className="shop-break">
                      {item.name}
                      {item.variantName && <span className="d-block small">Variant: {item.variantName}</span>}
                      <span className="d-block small text-body-secondary">
                        {item.quantity} bought{item.refundedQuantity ? `, ${item.refundedQuantity} refunded` : ''}{item.shipped ? ', shipped' : ''}
                      </span>
                    </td>
                    <td data-label="PRICE">{formatMoney(item.price)}</td>
                    <td data-label="REFUND" style={{ minWidth: '7rem' }}>
                      <Form.Label htmlFor={inputId} visuallyHidden>Units of {item.name} to refund (0 to {max})</Form.Label>
                      <Form.Control id={inputId} type="number" inputMode="numeric" min={0} max={max} step={1} size="sm" disabled={max === 0}
                        value={form.quantities[item._id] ?? '0'} isInvalid={Boolean(error)} aria-describedby={error ? `${inputId}-error` : undefined}
                        onChange={(e) => update({ quantities: { ...form.quantities, [item._id]: e.target.value } })} />
                      <span className="small text-body-secondary">of {max}</span>
                      {error && <Form.Control.Feedback type="invalid" id={`${inputId}-error`}>{error}</Form.Control.Feedback>}
                    </td>
                    <td data-label="RESTOCK">
                      <Form.Check id={`refund-restock-${item._id}`} label="Restock" aria-label={`Restock ${item.name}`} disabled={max === 0}
                        checked={form.restock[item._id] ?? false} onChange={(e) => update({ restock: { ...form.restock, [item._id]: e.target.checked } })} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </Table>
          <div className="d-flex justify-content-end mb-3">
            <Button variant="outline-secondary" size="sm" onClick={() => update(fullRefundForm(order, form))}>Refund everything left</Button>
          </div>
          <Form.Group className="mb-3" controlId="refund-amount">
            <Form.Label>Extra amount (shipping, goodwill), USD</Form.Label>
            <Form.Control type="text" inputMode="decimal" placeholder="0.00" value={form.amount} isInvalid={Boolean(shown('amount'))}
              onChange={(e) => update({ amount: e.target.value })} />
            <Form.Control.Feedback type="invalid">{shown('amount')}</Form.Control.Feedback>
          </Form.Group>
          <Form.Group className="mb-3" controlId="refund-reason">
            <Form.Label>Reason (the customer reads it)</Form.Label>
            <Form.Control as="textarea" rows={2} maxLength={REFUND_REASON_MAX} required value={form.reason} isInvalid={Boolean(shown('reason'))}
              onChange={(e) => update({ reason: e.target.value })} />
            <Form.Control.Feedback type="invalid">{shown('reason')}</Form.Control.Feedback>
          </Form.Group>
          <p className="fs-5 mb-1" aria-live="polite">
            Total to refund: <strong data-testid="refund-total">{formatMoney(plan.totalCents / 100)}</strong>
          </p>
          {shown('total') && <p className="text-danger small mb-0" data-testid="refund-total-error">{shown('total')}</p>}
          {serverError && <Alert variant="danger" className="mt-3 mb-0" role="alert">{serverError}</Alert>}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onClose} disabled={refund.isPending}>Cancel</Button>
          <Button type="submit" variant="danger" disabled={refund.isPending || (plan.totalCents > left)}>
            {refund.isPending ? 'Refunding…' : `Refund ${formatMoney(plan.totalCents / 100)}`}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
