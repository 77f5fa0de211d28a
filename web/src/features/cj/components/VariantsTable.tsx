import { numberProblemMessage, parseMoney, parseWholeNumber } from '@shop/contracts/numbers';
import { formatMoney, roundMoney } from '../../../lib/format';
import type { FormVariant } from '../lib/form-source';

/** A variant row as edited: the inputs' text, so a half-typed number is kept as typed. */
export interface VariantEdit {
  vid: string;
  price: string;
  countInStock: string;
  enabled: boolean;
}

export const toVariantEdits = (variants: FormVariant[]): VariantEdit[] =>
  variants.map((v) => ({ vid: v.vid, price: v.price === null ? '' : String(v.price), countInStock: String(v.countInStock), enabled: v.enabled }));

const PRICE_MESSAGES = { required: 'Price is required', format: 'Price must be a number written like 19.99', decimals: 'Price must have at most 2 decimal places' };
const STOCK_MESSAGES = { required: 'Stock is required', format: 'Stock must be a whole number from 0 to 1000000' };

/** Field errors of one row ('' when fine), read with the server's parsers (decimal notation only). */
export function variantErrors(edit: VariantEdit): { price: string; countInStock: string } {
  const price = parseMoney(edit.price);
  const stock = parseWholeNumber(edit.countInStock);
  return {
    price: !price.ok ? numberProblemMessage(price.problem, PRICE_MESSAGES) : price.value < 0.01 || price.value > 1_000_000 ? 'Price must be from $0.01 to $1000000' : '',
    countInStock: !stock.ok ? numberProblemMessage(stock.problem, STOCK_MESSAGES) : stock.value < 0 || stock.value > 1_000_000 ? STOCK_MESSAGES.format : '',
  };
}

/** The margin of a price (after the product's sale discount) over the supplier's cost, and that as % of the price. */
export function variantMargin(price: number, discountPercent: number, cost: number | null): { margin: number; percent: number } | null {
  if (cost === null || !Number.isFinite(price) || price <= 0) return null;
  const sell = roundMoney(price * (discountPercent > 0 ? (100 - discountPercent) / 100 : 1));
  if (sell <= 0) return null;
  const margin = roundMoney(sell - cost);
  return { margin, percent: Math.round((margin / sell) * 1000) / 10 };
}

/**
 * The editor's variants: each supplier variant's name, image, our cost, price and stock (editable), an
 * on/off switch, margin and margin %. The variant the listing opens on follows the form's Price and
 * Count In Stock above and is always on sale, so its row shows those values read-only.
 */
export function VariantsTable({
  variants,
  edits,
  mainVid,
  mainPrice,
  mainStock,
  discountPercent,
  showErrors,
  onChange,
}: {
  variants: FormVariant[];
  edits: VariantEdit[];
  mainVid: string;
  mainPrice: number;
  mainStock: number;
  discountPercent: number;
  showErrors: boolean;
  onChange: (vid: string, patch: Partial<VariantEdit>) => void;
}) {
  return (
    <div className="table-responsive mb-3">
      <table className="table table-sm align-middle mb-0" aria-label="Variants">
        <caption className="caption-top small text-body-secondary">
          Each variant's selling price and stock. The listing's variant follows Price and Count In Stock above.
        </caption>
        <thead>
          <tr>
            <th scope="col">Variant</th>
            <th scope="col">Cost</th>
            <th scope="col">Price</th>
            <th scope="col">Stock</th>
            <th scope="col">Sell this variant</th>
            <th scope="col">Margin</th>
            <th scope="col">Margin %</th>
          </tr>
        </thead>
        <tbody>
          {variants.map((v) => {
            const edit = edits.find((e) => e.vid === v.vid);
            if (!edit) return null;
            const isMain = v.vid === mainVid;
            const parsed = parseMoney(edit.price);
            const price = isMain ? mainPrice : parsed.ok ? parsed.value : Number.NaN;
            const m = variantMargin(price, discountPercent, v.cost);
            const errs = isMain ? { price: '', countInStock: '' } : variantErrors(edit);
            const priceId = `variant-${v.vid}-price`;
            const stockId = `variant-${v.vid}-stock`;
            return (
              <tr key={v.vid} data-testid={`variant-row-${v.vid}`}>
                <th scope="row" className="fw-normal" style={{ minWidth: '8rem' }}>
                  <span className="d-flex align-items-center gap-2">
                    {v.image && <img src={v.image} alt="" width={40} height={40} className="rounded border" style={{ objectFit: 'cover' }} loading="lazy" />}
                    <span className="small text-break">
                      {v.name}
                      {isMain && <span className="badge text-bg-primary ms-1">Listing</span>}
                    </span>
                  </span>
                </th>
                <td className="small">{v.cost === null ? '—' : formatMoney(v.cost)}</td>
                <td style={{ minWidth: '6.5rem' }}>
                  {isMain ? (
                    <span className="small">{Number.isFinite(mainPrice) ? formatMoney(mainPrice) : '—'}</span>
                  ) : (
                    <>
                      <input
                        id={priceId}
                        type="number"
                        inputMode="decimal"
                        step="0.01"
                        min={0.01}
                        className={`form-control form-control-sm${showErrors && errs.price ? ' is-invalid' : ''}`}
                        aria-label={`Price of ${v.name}`}
                        aria-invalid={showErrors && errs.price ? true : undefined}
                        aria-describedby={showErrors && errs.price ? `${priceId}-error` : undefined}
                        value={edit.price}
                        onChange={(e) => onChange(v.vid, { price: e.target.value })}
                      />
                      {showErrors && errs.price && (
                        <div id={`${priceId}-error`} className="invalid-feedback d-block">
                          {errs.price}
                        </div>
                      )}
                    </>
                  )}
                </td>
                <td style={{ minWidth: '5.5rem' }}>
                  {isMain ? (
                    <span className="small">{mainStock}</span>
                  ) : (
                    <>
                      <input
                        id={stockId}
                        type="number"
                        inputMode="numeric"
                        step="1"
                        min={0}
                        className={`form-control form-control-sm${showErrors && errs.countInStock ? ' is-invalid' : ''}`}
                        aria-label={`Stock of ${v.name}`}
                        aria-invalid={showErrors && errs.countInStock ? true : undefined}
                        aria-describedby={showErrors && errs.countInStock ? `${stockId}-error` : undefined}
                        value={edit.countInStock}
                        onChange={(e) => onChange(v.vid, { countInStock: e.target.value })}
                      />
                      {showErrors && errs.countInStock && (
                        <div id={`${stockId}-error`} className="invalid-feedback d-block">
                          {errs.countInStock}
                        </div>
                      )}
                    </>
                  )}
                </td>
                <td>
                  <div className="form-check form-switch mb-0">
                    <input
                      type="checkbox"
                      role="switch"
                      className="form-check-input"
                      aria-label={`Sell ${v.name}`}
                      checked={isMain || edit.enabled}
                      disabled={isMain}
                      onChange={(e) => onChange(v.vid, { enabled: e.target.checked })}
                    />
                  </div>
                </td>
                <td className={`small${m && m.margin < 0 ? ' text-danger fw-semibold' : ''}`}>{m ? formatMoney(m.margin) : '—'}</td>
                <td className={`small${m && m.margin < 0 ? ' text-danger fw-semibold' : ''}`}>{m ? `${m.percent}%` : '—'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
