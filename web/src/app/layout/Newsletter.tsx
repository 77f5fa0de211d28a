import { useState, type FormEvent } from 'react';
import { subscribeToNewsletter } from '../../features/newsletter/api/subscribe-to-newsletter';
import { ApiError, getErrorMessage } from '../../lib/api-client';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Newsletter sign-up: the server stores the subscription and mails a confirmation with an
 * unsubscribe link. The answer (or the refusal) is shown under the field, once.
 */
export function Newsletter() {
  const [address, setAddress] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [isPending, setIsPending] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    if (!EMAIL_PATTERN.test(address.trim())) {
      setError('Please enter a valid email address');
      return;
    }
    setError(null);
    setIsPending(true);
    subscribeToNewsletter({ email: address.trim() })
      .then(
        (res) => {
          setAddress('');
          setDone(res.message);
        },
        (err: unknown) => setError(err instanceof ApiError && err.fieldErrors?.email ? err.fieldErrors.email : getErrorMessage(err)),
      )
      .finally(() => setIsPending(false));
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby="newsletter-title">
      <h2 id="newsletter-title" className="h6 text-uppercase shop-footer-heading">
        Newsletter
      </h2>
      <p className="small mb-2">Deals and new arrivals, once a week.</p>
      <label htmlFor="newsletter-address" className="visually-hidden">
        Newsletter e-mail address
      </label>
      <div className="input-group input-group-sm has-validation">
        <input
          id="newsletter-address"
          type="email"
          className={`form-control ${error ? 'is-invalid' : ''}`}
          placeholder="you@example.com"
          autoComplete="email"
          value={address}
          onChange={(e) => setAddress(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'newsletter-error' : undefined}
        />
        <button type="submit" className="btn btn-warning" disabled={isPending}>
          Subscribe
        </button>
        {error && (
          <div id="newsletter-error" className="invalid-feedback">
            {error}
          </div>
        )}
      </div>
      {done && (
        <p className="small mt-2 mb-0" role="status">
          {done}
        </p>
      )}
    </form>
  );
}
