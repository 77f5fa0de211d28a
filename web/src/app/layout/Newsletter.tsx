import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Newsletter sign-up. The spec leaves its behaviour open and there is no newsletter service, so it
 * validates the address and thanks the visitor; nothing is sent anywhere.
 */
export function Newsletter() {
  const [address, setAddress] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!EMAIL_PATTERN.test(address.trim())) {
      setError('Please enter a valid email address');
      return;
    }
    setError(null);
    setAddress('');
    toast.success('Thank you for subscribing!');
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
        <button type="submit" className="btn btn-warning">
          Subscribe
        </button>
        {error && (
          <div id="newsletter-error" className="invalid-feedback">
            {error}
          </div>
        )}
      </div>
    </form>
  );
}
