import { applyPricingRule, PRICING_ROUNDINGS, pricingRuleSchema, type PricingRule } from '@shop/contracts';
import { useId, useState, type FormEvent } from 'react';
import { toast } from '../../../lib/toast';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { formatMoney } from '../../../lib/format';
import { usePricingRule, useSavePricingRule } from '../api/pricing';

type Field = 'markupPercent' | 'fixedAmount' | 'rounding';
type Values = { markupPercent: string; fixedAmount: string; rounding: PricingRule['rounding'] };

const EXAMPLE_COST = 10;

/** The editable part, started from the saved rule (remounted when it changes). */
function PricingRuleFields({ rule }: { rule: PricingRule }) {
  const uid = useId();
  const save = useSavePricingRule();
  const [values, setValues] = useState<Values>({ markupPercent: String(rule.markupPercent), fixedAmount: String(rule.fixedAmount), rounding: rule.rounding });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const parsed = pricingRuleSchema.safeParse(values);
  const set = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    // Read with the server's money parser (decimal notation only); a blank fixed amount is $0.
    const checked = pricingRuleSchema.safeParse({
      ...values,
      markupPercent: values.markupPercent.trim() === '' ? undefined : values.markupPercent,
      fixedAmount: values.fixedAmount.trim() === '' ? undefined : values.fixedAmount,
    });
    if (!checked.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const issue of checked.error.issues) {
        const field = issue.path[0] as Field;
        next[field] ??= field === 'markupPercent' && values.markupPercent.trim() === '' ? 'Markup is required' : issue.message;
      }
      setErrors(next);
      return;
    }
    save.mutate(checked.data, {
      onSuccess: () => toast.success('Pricing rule saved'),
      onError: (err) => {
        const fieldErrors = err instanceof ApiError ? (err.fieldErrors as Partial<Record<Field, string>> | undefined) : undefined;
        if (fieldErrors) setErrors(fieldErrors);
        toast.error(getErrorMessage(err));
      },
    });
  };

  const field = (name: Field) => ({
    id: `${uid}-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${uid}-${name}-error` : undefined,
    className: `form-control${errors[name] ? ' is-invalid' : ''}`,
  });
  const error = (name: Field) =>
    errors[name] && (
      <div id={`${uid}-${name}-error`} className="invalid-feedback d-block">
        {errors[name]}
      </div>
    );

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Pricing rule" className="row g-2 align-items-start">
      <div className="col-12 col-sm-4">
        <label htmlFor={`${uid}-markupPercent`} className="form-label small mb-1">
          Markup (%)
        </label>
        <input {...field('markupPercent')} type="number" inputMode="decimal" min={0} max={1000} step="any" value={values.markupPercent} onChange={(e) => set('markupPercent', e.target.value)} />
        {error('markupPercent')}
      </div>
      <div className="col-12 col-sm-4">
        <label htmlFor={`${uid}-fixedAmount`} className="form-label small mb-1">
          Fixed amount ($)
        </label>
        <input {...field('fixedAmount')} type="number" inputMode="decimal" min={0} step="any" value={values.fixedAmount} onChange={(e) => set('fixedAmount', e.target.value)} />
        {error('fixedAmount')}
      </div>
      <div className="col-12 col-sm-4">
        <label htmlFor={`${uid}-rounding`} className="form-label small mb-1">
          Rounding
        </label>
        <select {...field('rounding')} className={`form-select${errors.rounding ? ' is-invalid' : ''}`} value={values.rounding} onChange={(e) => set('rounding', e.target.value)}>
          {PRICING_ROUNDINGS.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
        {error('rounding')}
      </div>
      <div className="col-12 d-flex flex-wrap align-items-center gap-2">
        <button type="submit" className="btn btn-primary btn-sm" disabled={save.isPending}>
          Save Pricing Rule
        </button>
        {parsed.success && (
          <span className="small text-body-secondary" data-testid="pricing-example">
            A cost of {formatMoney(EXAMPLE_COST)} sells for {formatMoney(applyPricingRule(EXAMPLE_COST, parsed.data))}
          </span>
        )}
      </div>
    </form>
  );
}

/**
 * The pricing rule on the admin supplier screen (GET/PUT cj/pricing): markup %, a fixed amount and the
 * rounding. It prices products and variants imported from now on; saved prices do not change.
 */
export function PricingRuleForm() {
  const rule = usePricingRule();
  return (
    <section className="card mb-3" aria-labelledby="pricing-rule-heading">
      <div className="card-body">
        <h2 id="pricing-rule-heading" className="h6">
          Pricing rule
        </h2>
        <p className="small text-body-secondary mb-2">Fills the price of newly imported products and variants: cost + markup + fixed amount, rounded up.</p>
        {rule.isPending ? (
          <p className="small mb-0">Loading...</p>
        ) : rule.isError ? (
          <p className="text-danger small mb-0" role="alert">
            {getErrorMessage(rule.error)}
          </p>
        ) : (
          <PricingRuleFields key={JSON.stringify(rule.data)} rule={rule.data} />
        )}
      </div>
    </section>
  );
}
