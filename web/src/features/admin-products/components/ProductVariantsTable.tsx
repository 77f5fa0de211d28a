import { AdminTable } from '../../../components/admin/AdminTable';
import type { VariantDraft, VariantRowDraft } from '../lib/variant-drafts';

function CellError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <div id={id} className="invalid-feedback d-block">
      {message}
    </div>
  );
}

/** A text or number input of one row, labelled with the row's name and wired to its error. */
function RowInput({ id, label, value, error, onChange, kind = 'text' }: {
  id: string;
  label: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  kind?: 'text' | 'price' | 'stock';
}) {
  const numeric = kind === 'price' ? { type: 'number', inputMode: 'decimal', step: '0.01', min: 0.01 } as const
    : kind === 'stock' ? { type: 'number', inputMode: 'numeric', step: '1', min: 0 } as const
      : { type: 'text' } as const;
  return (
    <>
      <input
        id={id}
        {...numeric}
        className={`form-control form-control-sm${error ? ' is-invalid' : ''}`}
        aria-label={label}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <CellError id={`${id}-error`} message={error} />
    </>
  );
}

/**
 * The variant table (issue 34): one row per combination of the options' values, with its price,
 * stock, SKU, image (one of the product's images) and an on/off switch. Below 768 px each row is a
 * card of labelled fields (AdminTable).
 */
export function ProductVariantsTable({ rows, images, errors, onChange }: {
  rows: VariantRowDraft[];
  /** The product's images to choose from: the main image first. */
  images: string[];
  errors: Record<string, string>;
  onChange: (key: string, patch: Partial<VariantDraft>) => void;
}) {
  if (!rows.length) return <p className="small text-body-secondary">Add values to the options to list the variants.</p>;
  return (
    <AdminTable columns={['Variant', 'Price', 'Stock', 'SKU', 'Image', 'Sell this variant']} caption="Variants" className="table-sm">
      {rows.map((row, i) => {
        const { draft, label } = row;
        const id = `variant-${i}`;
        const err = (field: string) => errors[`variants.${i}.${field}`];
        // '' is the product's main image; the others are its additional images (and whatever the variant has).
        const choices = [...new Set([...images.slice(1), ...(draft.image ? [draft.image] : [])])].filter(Boolean);
        return (
          <tr key={row.key} data-testid="variant-row">
            <th scope="row" className="fw-semibold text-break" style={{ minWidth: '7rem' }}>
              {label}
              {!draft._id && <span className="badge text-bg-info ms-1 fw-normal">New</span>}
              <CellError id={`${id}-options-error`} message={err('options') ?? err('_id')} />
            </th>
            <td style={{ minWidth: '6.5rem' }}>
              <RowInput id={`${id}-price`} kind="price" label={`Price of ${label}`} value={draft.price} error={err('price')} onChange={(price) => onChange(row.key, { price })} />
            </td>
            <td style={{ minWidth: '5.5rem' }}>
              <RowInput
                id={`${id}-stock`}
                kind="stock"
                label={`Stock of ${label}`}
                value={draft.countInStock}
                error={err('countInStock')}
                onChange={(countInStock) => onChange(row.key, { countInStock })}
              />
            </td>
            <td style={{ minWidth: '6rem' }}>
              <RowInput id={`${id}-sku`} label={`SKU of ${label}`} value={draft.sku} error={err('sku')} onChange={(sku) => onChange(row.key, { sku })} />
            </td>
            <td style={{ minWidth: '8rem' }}>
              <div className="d-flex align-items-center gap-1">
                {(draft.image || images[0]) && (
                  <img src={draft.image || images[0]} alt="" width={32} height={32} className="rounded border flex-none" style={{ objectFit: 'cover' }} loading="lazy" />
                )}
                <select
                  className={`form-select form-select-sm${err('image') ? ' is-invalid' : ''}`}
                  aria-label={`Image of ${label}`}
                  value={draft.image}
                  onChange={(e) => onChange(row.key, { image: e.target.value })}
                >
                  <option value="">Main image</option>
                  {choices.map((src, n) => (
                    <option key={src} value={src}>
                      {`Image ${n + 2}: ${src.split('/').pop() ?? src}`}
                    </option>
                  ))}
                </select>
              </div>
              <CellError id={`${id}-image-error`} message={err('image')} />
            </td>
            <td>
              <div className="form-check form-switch mb-0">
                <input
                  type="checkbox"
                  role="switch"
                  className="form-check-input"
                  aria-label={`Sell ${label}`}
                  checked={draft.enabled}
                  onChange={(e) => onChange(row.key, { enabled: e.target.checked })}
                />
              </div>
            </td>
          </tr>
        );
      })}
    </AdminTable>
  );
}
