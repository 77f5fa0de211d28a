import type { CartDiscount } from '@shop/contracts';
import { useId, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useCartDiscount } from '../api/cart-discount';

const FAILED = 'The discount code could not be checked. Please try again.';

/**
 * The cart's discount code (issue 34.1), on the cart and on Place Order: type a code and apply it,
 * or see the one applied with the server's message (why it does not apply now, when it does not) and
 * remove it. The server works every amount out; nothing here is trusted at checkout.
 */
export function DiscountCodeBox({ discount }: { discount: CartDiscount | null | undefined }) {
  const id = useId();
  const { apply, remove } = useCartDiscount();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  const onApply = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    apply.mutate(code, {
      onSuccess: () => setCode(''),
      onError: (err) => setError(err instanceof ApiError && err.status < 500 && err.message ? err.message : FAILED),
    });
  };
  const onRemove = () => {
    setError(null);
    remove.mutate(undefined, {
      onSuccess: () => toast.info('Discount code removed'),
      onError: () => toast.error(FAILED),
    });
  };

  if (discount) {
    return (
      <div data-testid="discount-box">
        <div className="d-flex align-items-center justify-content-between gap-2">
          <span>
            Code <span className="badge text-bg-success" data-testid="applied-discount-code">{discount.code}</span>
          </span>
          <Button variant="outline-secondary" size="sm" onClick={onRemove} disabled={remove.isPending} aria-label={`Remove discount code ${discount.code}`}>
            {remove.isPending && <Spinner animation="border" size="sm" className="me-1" aria-hidden="true" />}
            Remove
          </Button>
        </div>
        <p className={`small mb-0 mt-1 ${discount.isValid ? 'text-success-emphasis' : 'text-danger-emphasis'}`} role="status" data-testid="discount-message">
          {discount.message}
        </p>
      </div>
    );
  }
  return (
    <form noValidate onSubmit={onApply} data-testid="discount-box">
      <label htmlFor={`${id}-code`} className="form-label small mb-1">Discount code</label>
      <div className="input-group input-group-sm">
        <input
          id={`${id}-code`} className={`form-control${error ? ' is-invalid' : ''}`} value={code} maxLength={40} autoComplete="off"
          aria-invalid={Boolean(error)} aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => setCode(e.target.value)}
        />
        <Button type="submit" variant="outline-primary" disabled={apply.isPending || code.trim() === ''}>
          {apply.isPending && <Spinner animation="border" size="sm" className="me-1" aria-hidden="true" />}
          Apply
        </Button>
      </div>
      {error && <div id={`${id}-error`} className="small text-danger-emphasis mt-1" role="alert">{error}</div>}
    </form>
  );
}
