import { DISCOUNT_KINDS, discountBodySchema, type Discount, type DiscountKind } from '@shop/contracts';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { MessageBox } from '../../../components/MessageBox';
import { PageTitle } from '../../../components/PageTitle';
import { TextSkeleton } from '../../../components/Skeleton';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { toast } from '../../../lib/toast';
import { useDiscount } from '../api/get-discounts';
import { useCreateDiscount, useUpdateDiscount } from '../api/manage-discount';

interface FormState {
  code: string; kind: DiscountKind; value: string; minSubtotal: string; startsAt: string; endsAt: string;
  usageLimit: string; perCustomerLimit: string; productIds: string; categories: string; enabled: boolean; allowBelowSupplierCost: boolean;
}
type Field = keyof FormState;

const EMPTY: FormState = {
  code: '', kind: 'percent', value: '', minSubtotal: '', startsAt: '', endsAt: '', usageLimit: '', perCustomerLimit: '',
  productIds: '', categories: '', enabled: true, allowBelowSupplierCost: false,
};
const KIND_LABELS: Record<DiscountKind, string> = { percent: 'Percentage off', fixed: 'Fixed amount off', free_shipping: 'Free shipping' };
const FORM_INVALID = 'Please fill all fields correctly!';

/** An ISO time as a datetime-local input's value (the browser's time zone), and back. */
const toLocalInput = (iso: string | null) => {
  if (!iso) return '';
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const fromLocalInput = (v: string) => (v ? new Date(v).toISOString() : null);
const list = (v: string) => v.split(',').map((x) => x.trim()).filter(Boolean);

const formOf = (d: Discount): FormState => ({
  code: d.code, kind: d.kind, value: d.kind === 'free_shipping' ? '' : String(d.value), minSubtotal: d.minSubtotal === null ? '' : String(d.minSubtotal),
  startsAt: toLocalInput(d.startsAt), endsAt: toLocalInput(d.endsAt),
  usageLimit: d.usageLimit === null ? '' : String(d.usageLimit), perCustomerLimit: d.perCustomerLimit === null ? '' : String(d.perCustomerLimit),
  productIds: d.productIds.join(', '), categories: d.categories.join(', '), enabled: d.enabled, allowBelowSupplierCost: d.allowBelowSupplierCost,
});

/** /admin/discount/:id edits a discount code; /admin/discount creates one. */
export default function DiscountEditPage() {
  const { id } = useParams();
  const isNew = !id;
  const navigate = useNavigate();
  const discount = useDiscount(id);
  const create = useCreateDiscount();
  const update = useUpdateDiscount();
  const [form, setForm] = useState<FormState>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});

  useEffect(() => {
    if (discount.data) setForm(formOf(discount.data));
  }, [discount.data]);

  const set = <K extends Field>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const body = {
      code: form.code, kind: form.kind, value: form.kind === 'free_shipping' ? 0 : form.value, minSubtotal: form.minSubtotal,
      startsAt: fromLocalInput(form.startsAt), endsAt: fromLocalInput(form.endsAt), usageLimit: form.usageLimit, perCustomerLimit: form.perCustomerLimit,
      productIds: list(form.productIds), categories: list(form.categories), enabled: form.enabled, allowBelowSupplierCost: form.allowBelowSupplierCost,
    };
    const parsed = discountBodySchema.safeParse(body);
    if (!parsed.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as Field] ??= issue.message;
      setErrors(next);
      toast.error(FORM_INVALID);
      return;
    }
    setErrors({});
    try {
      const res = isNew ? await create.mutateAsync(body) : await update.mutateAsync({ id, body });
      toast.success(res.message);
      navigate(paths.admin.discounts);
    } catch (err) {
      if (err instanceof ApiError && err.fieldErrors) setErrors(err.fieldErrors as Partial<Record<Field, string>>);
      toast.error(err instanceof ApiError && err.status < 500 ? err.message : `${FORM_INVALID} ${getErrorMessage(err)}`);
    }
  };

  const text = (key: Field, label: string, props: { help?: ReactNode; type?: string; inputMode?: 'decimal' | 'numeric'; placeholder?: string } = {}) => {
    const inputId = `discount-${key}`;
    const described = [errors[key] ? `${inputId}-error` : '', props.help ? `${inputId}-help` : ''].filter(Boolean).join(' ') || undefined;
    return (
      <div className="mb-3">
        <label htmlFor={inputId} className="form-label">{label}</label>
        <input id={inputId} type={props.type ?? 'text'} inputMode={props.inputMode} placeholder={props.placeholder}
          className={`form-control${errors[key] ? ' is-invalid' : ''}`} value={form[key] as string}
          aria-invalid={Boolean(errors[key])} aria-describedby={described} onChange={(e) => set(key, e.target.value)} />
        {errors[key] && <div id={`${inputId}-error`} className="invalid-feedback">{errors[key]}</div>}
        {props.help && <div id={`${inputId}-help`} className="form-text">{props.help}</div>}
      </div>
    );
  };

  const isSaving = create.isPending || update.isPending;
  return (
    <div className="mx-auto" style={{ maxWidth: 640 }}>
      <PageTitle title={isNew ? 'Create Discount' : `Edit Discount ${discount.data?.code ?? ''}`.trim()} />
      {!isNew && discount.isPending ? (
        <TextSkeleton lines={6} />
      ) : !isNew && discount.error ? (
        <MessageBox variant="danger">{getErrorMessage(discount.error)}</MessageBox>
      ) : (
        <form noValidate onSubmit={(e) => void onSubmit(e)}>
          {text('code', 'Code', { help: 'Letters, digits, - and _. Shoppers may type it in any case.' })}
          <div className="mb-3">
            <label htmlFor="discount-kind" className="form-label">Kind</label>
            <select id="discount-kind" className="form-select" value={form.kind} onChange={(e) => set('kind', e.target.value as DiscountKind)}>
              {DISCOUNT_KINDS.map((k) => <option key={k} value={k}>{KIND_LABELS[k]}</option>)}
            </select>
          </div>
          {form.kind !== 'free_shipping' && text('value', form.kind === 'percent' ? 'Percentage (1–100)' : 'Amount (USD)', { inputMode: 'decimal' })}
          {text('minSubtotal', 'Minimum subtotal (USD, optional)', { inputMode: 'decimal' })}
          <div className="row">
            <div className="col-sm-6">{text('startsAt', 'Starts (optional)', { type: 'datetime-local' })}</div>
            <div className="col-sm-6">{text('endsAt', 'Ends (optional)', { type: 'datetime-local' })}</div>
          </div>
          <div className="row">
            <div className="col-sm-6">{text('usageLimit', 'Usage limit (optional)', { inputMode: 'numeric', help: 'Orders in all.' })}</div>
            <div className="col-sm-6">{text('perCustomerLimit', 'Per-customer limit (optional)', { inputMode: 'numeric', help: 'Orders per customer.' })}</div>
          </div>
          {text('categories', 'Categories (optional)', { placeholder: 'Kitchen, Garden', help: 'Comma-separated. Empty, with no products: the whole order.' })}
          {text('productIds', 'Product ids (optional)', { help: 'Comma-separated product ids.' })}
          <div className="form-check mb-2">
            <input id="discount-enabled" type="checkbox" className="form-check-input" checked={form.enabled} onChange={(e) => set('enabled', e.target.checked)} />
            <label htmlFor="discount-enabled" className="form-check-label">Enabled</label>
          </div>
          <div className="form-check mb-3">
            <input id="discount-below-cost" type="checkbox" className="form-check-input" checked={form.allowBelowSupplierCost}
              aria-describedby="discount-below-cost-help" onChange={(e) => set('allowBelowSupplierCost', e.target.checked)} />
            <label htmlFor="discount-below-cost" className="form-check-label">May take supplier products below their supplier cost</label>
            <div id="discount-below-cost-help" className="form-text">Off: a supplier line is never discounted below what the supplier charges.</div>
          </div>
          <div className="d-flex gap-2">
            <button type="submit" className="btn btn-primary" disabled={isSaving}>{isNew ? 'Create' : 'Update'}</button>
            <Link to={paths.admin.discounts} className="btn btn-outline-secondary">Back</Link>
          </div>
        </form>
      )}
    </div>
  );
}
