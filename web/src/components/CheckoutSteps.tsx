const STEPS = ['Sign-In', 'Shipping', 'Payment', 'Place Order'] as const;

/** The checkout progress bar; steps up to `step` (1-4) are done or current. */
export function CheckoutSteps({ step }: { step: 1 | 2 | 3 | 4 }) {
  return (
    <nav aria-label="Checkout steps">
      <ol className="row g-0 list-unstyled my-3 small">
        {STEPS.map((label, i) => {
          const isReached = i < step;
          return (
            <li
              key={label}
              className={`col text-center pb-2 border-bottom border-3 ${isReached ? 'border-primary text-primary fw-semibold' : 'text-body-secondary'}`}
              aria-current={i + 1 === step ? 'step' : undefined}
            >
              {label}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
