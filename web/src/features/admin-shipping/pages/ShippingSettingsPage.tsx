import {
  MAX_COUNTRY_RATES, SHIPPING_SETTINGS_SAVED, STANDARD_SHIPPING_LABEL, shippingSettingsBodySchema, type ShippingSettings, type SupplierFreightMode,
} from '@shop/contracts';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import Spinner from 'react-bootstrap/Spinner';
import { AdminPageHeader } from '../../../components/admin/AdminPageHeader';
import { MessageBox } from '../../../components/MessageBox';
import { TextSkeleton } from '../../../components/Skeleton';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { toast } from '../../../lib/toast';
import { useSaveShippingSettings, useShippingRates, useShippingSettings } from '../api/shipping-settings';
import { countryOptions } from '../lib/countries';

interface Row { key: number; country: string; rate: string }
interface Values { flatRate: string; freeOver: string; rows: Row[]; supplierFreight: SupplierFreightMode }

let nextKey = 1;
const toValues = (s: ShippingSettings): Values => ({
  flatRate: s.flatRate.toFixed(2),
  freeOver: s.freeOver === null ? '' : s.freeOver.toFixed(2),
  rows: s.countryRates.map((r) => ({ key: nextKey++, country: r.country, rate: r.rate.toFixed(2) })),
  supplierFreight: s.supplierFreight,
});

/** The form, started from the saved settings (remounted when they change). */
function ShippingSettingsForm({ saved }: { saved: ShippingSettings }) {
  const uid = useId();
  const save = useSaveShippingSettings();
  const countries = useMemo(() => countryOptions(), []);
  const [values, setValues] = useState<Values>(() => toValues(saved));
  const [error, setError] = useState<{ field: string | null; message: string } | null>(null);
  const set = (patch: Partial<Values>) => {
    setValues((v) => ({ ...v, ...patch }));
    setError(null);
  };
  const setRow = (key: number, patch: Partial<Row>) => set({ rows: values.rows.map((r) => (r.key === key ? { ...r, ...patch } : r)) });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const body = {
      flatRate: values.flatRate.trim() === '' ? '0' : values.flatRate,
      freeOver: values.freeOver.trim() === '' ? null : values.freeOver,
      countryRates: values.rows.map((r) => ({ country: r.country, rate: r.rate.trim() === '' ? undefined : r.rate })),
      supplierFreight: values.supplierFreight,
    };
    const checked = shippingSettingsBodySchema.safeParse(body);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      const [first, index, leaf] = issue.path;
      const where = first === 'countryRates' && typeof index === 'number' ? `Country rate ${index + 1}: ` : '';
      setError({ field: [first, index, leaf].filter((p) => p !== undefined).join('.'), message: `${where}${issue.message}` });
      return;
    }
    save.mutate(body as never, {
      onSuccess: (res) => toast.success(res.message || SHIPPING_SETTINGS_SAVED),
      onError: (err) => {
        const field = err instanceof ApiError && err.fieldErrors ? Object.keys(err.fieldErrors)[0] ?? null : null;
        setError({ field, message: getErrorMessage(err) });
        toast.error(getErrorMessage(err));
      },
    });
  };

  const invalid = (field: string) => (error?.field === field ? { 'aria-invalid': true as const, 'aria-describedby': `${uid}-error` } : {});
  const cls = (field: string, base = 'form-control') => `${base}${error?.field === field ? ' is-invalid' : ''}`;

  return (
    <form noValidate onSubmit={onSubmit} aria-label="Shipping settings">
      {error && (
        <div id={`${uid}-error`}>
          <MessageBox variant="danger">{error.message}</MessageBox>
        </div>
      )}
      <div className="row g-3 mb-3">
        <div className="col-12 col-sm-6">
          <label htmlFor={`${uid}-flat`} className="form-label">Flat rate per order ($)</label>
          <input id={`${uid}-flat`} className={cls('flatRate')} type="text" inputMode="decimal" value={values.flatRate}
            aria-describedby={`${uid}-flat-help`} {...invalid('flatRate')} onChange={(e) => set({ flatRate: e.target.value })} />
          <div id={`${uid}-flat-help`} className="form-text">0 is free shipping. Countries below can have their own rate.</div>
        </div>
        <div className="col-12 col-sm-6">
          <label htmlFor={`${uid}-free`} className="form-label">Free shipping on orders over ($)</label>
          <input id={`${uid}-free`} className={cls('freeOver')} type="text" inputMode="decimal" value={values.freeOver} placeholder="Never"
            aria-describedby={`${uid}-free-help`} {...invalid('freeOver')} onChange={(e) => set({ freeOver: e.target.value })} />
          <div id={`${uid}-free-help`} className="form-text">Leave empty for no threshold. Applies to every country and to every item.</div>
        </div>
      </div>

      <fieldset className="mb-3">
        <legend className="h5">Rates by country</legend>
        {values.rows.length === 0 ? (
          <p className="text-body-secondary small" data-testid="no-country-rates">No country has its own rate: every order pays the flat rate.</p>
        ) : (
          values.rows.map((row, i) => (
            <div key={row.key} className="row g-2 align-items-end mb-2" role="group" aria-label={`Country rate ${i + 1}`}>
              <div className="col-12 col-sm-6">
                <label htmlFor={`${uid}-c-${row.key}`} className="form-label small mb-1">Country</label>
                <select id={`${uid}-c-${row.key}`} className={cls(`countryRates.${i}.country`, 'form-select')} value={row.country}
                  {...invalid(`countryRates.${i}.country`)} onChange={(e) => setRow(row.key, { country: e.target.value })}>
                  <option value="">Choose a country</option>
                  {countries.map((c) => (
                    <option key={c.code} value={c.code}>{c.name}</option>
                  ))}
                </select>
              </div>
              <div className="col-8 col-sm-4">
                <label htmlFor={`${uid}-r-${row.key}`} className="form-label small mb-1">Rate per order ($)</label>
                <input id={`${uid}-r-${row.key}`} className={cls(`countryRates.${i}.rate`)} type="text" inputMode="decimal" value={row.rate}
                  {...invalid(`countryRates.${i}.rate`)} onChange={(e) => setRow(row.key, { rate: e.target.value })} />
              </div>
              <div className="col-4 col-sm-2">
                <button type="button" className="btn btn-outline-danger w-100" aria-label={`Remove country rate ${i + 1}`}
                  onClick={() => set({ rows: values.rows.filter((r) => r.key !== row.key) })}>
                  Remove
                </button>
              </div>
            </div>
          ))
        )}
        <button type="button" className="btn btn-outline-primary btn-sm" disabled={values.rows.length >= MAX_COUNTRY_RATES}
          onClick={() => set({ rows: [...values.rows, { key: nextKey++, country: '', rate: '' }] })}>
          Add Country Rate
        </button>
      </fieldset>

      <fieldset className="mb-3">
        <legend className="h5">Items from the dropshipping catalogue</legend>
        <p className="form-text mt-0">They ship separately from the partner&apos;s warehouse in 7–12 days. Shoppers never see the partner&apos;s name.</p>
        <div className="form-check">
          <input className="form-check-input" type="radio" name={`${uid}-freight`} id={`${uid}-included`} checked={values.supplierFreight === 'included'}
            onChange={() => set({ supplierFreight: 'included' })} />
          <label className="form-check-label" htmlFor={`${uid}-included`}>
            Included in their price: no extra shipping (set the <Link to={paths.admin.cjProducts}>pricing rule</Link>&apos;s markup to cover the freight)
          </label>
        </div>
        <div className="form-check">
          <input className="form-check-input" type="radio" name={`${uid}-freight`} id={`${uid}-charge`} checked={values.supplierFreight === 'charge'}
            onChange={() => set({ supplierFreight: 'charge' })} />
          <label className="form-check-label" htmlFor={`${uid}-charge`}>
            Charge the partner&apos;s freight at checkout, shown to shoppers as &ldquo;{STANDARD_SHIPPING_LABEL}&rdquo;
          </label>
        </div>
      </fieldset>

      <button type="submit" className="btn btn-primary" disabled={save.isPending}>
        {save.isPending && <Spinner animation="border" size="sm" className="me-2" aria-hidden="true" />}
        Save Shipping Settings
      </button>
    </form>
  );
}

/**
 * Admin → Shipping (issue 34.3): the one shipping promise. Checkout, the cart's Place Order step, the
 * Shipping page, the FAQ and the assistant all read these settings.
 */
export default function ShippingSettingsPage() {
  const settings = useShippingSettings();
  const rates = useShippingRates();
  return (
    <div className="mx-auto" style={{ maxWidth: 800 }}>
      <AdminPageHeader title="Shipping">
        <Link to={paths.page('shipping')} className="btn btn-outline-secondary btn-sm">View Shipping Page</Link>
      </AdminPageHeader>
      <p className="text-body-secondary">
        Checkout charges exactly these settings, and the Shipping page, the FAQ and the chat assistant say them (placeholders such as{' '}
        <code>{'{{shipping.summary}}'}</code> in <Link to={paths.admin.pages}>Pages</Link>).
      </p>
      {rates.data && (
        <div className="card mb-3">
          <div className="card-body py-2">
            <h2 className="h6 mb-1">Shoppers read</h2>
            <p className="mb-0" data-testid="shipping-summary">{rates.data.summary}</p>
          </div>
        </div>
      )}
      {settings.isPending ? (
        <TextSkeleton lines={8} heading />
      ) : settings.isError ? (
        <MessageBox variant="danger">{getErrorMessage(settings.error)}</MessageBox>
      ) : (
        <ShippingSettingsForm key={JSON.stringify(settings.data)} saved={settings.data} />
      )}
    </div>
  );
}
