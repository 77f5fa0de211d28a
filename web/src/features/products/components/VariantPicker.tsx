import type { ProductOption, SellableVariant } from '@shop/contracts';
import { useState } from 'react';
import { earlyKey } from '../../../lib/early-clicks';
import { formatMoney } from '../../../lib/format';

/** How a variant is named to the shopper: a supplier variant's choice (colour, size...), else its name ("M / Red"). */
export const variantLabel = (v: Pick<SellableVariant, 'variantKey' | 'name'>) => v.variantKey || v.name;

const stockText = (v: SellableVariant) => (v.countInStock > 0 ? `${v.countInStock} in stock` : 'out of stock');

/**
 * The variant choice of a product page: radio groups (arrow keys move between the choices, Space
 * chooses). A supplier product's variants are one group of swatches; an own product with options
 * (issue 34) gets one group per option (Size, Colour), and the variant is the combination chosen.
 * `onChoose` gets the chosen variant's id, or null while the choice is incomplete.
 */
export function VariantPicker({ variants, options, chosenId, onChoose }: {
  variants: SellableVariant[];
  options?: ProductOption[] | undefined;
  chosenId: string | null;
  onChoose: (variantId: string | null) => void;
}) {
  if (options?.length && variants.every((v) => v.options)) {
    return <OptionsPicker variants={variants} options={options} chosenId={chosenId} onChoose={onChoose} />;
  }
  const chosen = variants.find((v) => v._id === chosenId) ?? null;
  return (
    <fieldset className="mb-3">
      <legend className="h6 mb-1">Variants:</legend>
      <div className="d-flex flex-wrap gap-2 mb-1" role="radiogroup" aria-label="Choose a variant">
        {variants.map((v) => (
          <label
            key={v._id}
            className={`border rounded p-1 text-center small ${v._id === chosenId ? 'border-primary border-2' : ''}`}
            data-early={earlyKey('variant', v._id)}
            style={{ width: '5.5rem', cursor: 'pointer' }}
          >
            <input
              type="radio"
              className="visually-hidden-focusable form-check-input"
              name="variant"
              value={v._id}
              checked={v._id === chosenId}
              onChange={() => onChoose(v._id)}
              aria-label={`${variantLabel(v)}, ${formatMoney(v.finalPrice)}${v.countInStock > 0 ? '' : ', out of stock'}`}
            />
            {v.image && <img src={v.image} alt="" width={72} height={72} className="img-fluid rounded" loading="lazy" />}
            <span className="d-block text-truncate" title={v.name}>
              {variantLabel(v)}
            </span>
            <span className="d-block">{formatMoney(v.finalPrice)}</span>
          </label>
        ))}
      </div>
      <p className="small text-body-secondary mb-0" aria-live="polite">
        {chosen ? `Chosen: ${variantLabel(chosen)} (${stockText(chosen)})` : 'Choose a variant.'}
      </p>
    </fieldset>
  );
}

type Picked = Record<string, string | undefined>;

/** The variant on sale with exactly these values (every option picked), else null. */
function variantFor(variants: SellableVariant[], options: ProductOption[], picked: Picked): SellableVariant | null {
  if (options.some((o) => picked[o.name] === undefined)) return null;
  return variants.find((v) => options.every((o) => v.options?.[o.name] === picked[o.name])) ?? null;
}

/** Whether some variant on sale has `value` for `option` together with the other options' picks. */
function isPossible(variants: SellableVariant[], options: ProductOption[], picked: Picked, option: string, value: string): boolean {
  return variants.some((v) => v.options?.[option] === value && options.every((o) => o.name === option || picked[o.name] === undefined || v.options?.[o.name] === picked[o.name]));
}

/** One radio group per option; values no variant on sale has (with the other picks) are switched off. */
function OptionsPicker({ variants, options, chosenId, onChoose }: {
  variants: SellableVariant[];
  options: ProductOption[];
  chosenId: string | null;
  onChoose: (variantId: string | null) => void;
}) {
  // Starts from the chosen variant, else from the options with a single value on sale.
  const [picked, setPicked] = useState<Picked>(() => {
    const chosen = variants.find((v) => v._id === chosenId);
    const start: Picked = {};
    for (const o of options) {
      const onSale = o.values.filter((value) => variants.some((v) => v.options?.[o.name] === value));
      start[o.name] = chosen?.options?.[o.name] ?? (onSale.length === 1 ? onSale[0] : undefined);
    }
    return start;
  });
  const chosen = variantFor(variants, options, picked);

  const pick = (option: string, value: string) => {
    const next: Picked = { ...picked, [option]: value };
    // A pick that no variant on sale has together with this one is let go.
    for (const o of options) {
      const current = next[o.name];
      if (o.name !== option && current !== undefined && !isPossible(variants, options, next, o.name, current)) next[o.name] = undefined;
    }
    setPicked(next);
    onChoose(variantFor(variants, options, next)?._id ?? null);
  };

  const missing = options.filter((o) => picked[o.name] === undefined).map((o) => o.name);
  return (
    <div className="mb-3">
      {options.map((o) => (
        <fieldset key={o.name} className="mb-2">
          <legend className="h6 mb-1">
            {o.name}: {picked[o.name] !== undefined && <span className="fw-normal">{picked[o.name]}</span>}
          </legend>
          <div className="d-flex flex-wrap gap-2" role="radiogroup" aria-label={`Choose ${o.name}`}>
            {o.values.map((value) => {
              const possible = isPossible(variants, options, picked, o.name, value);
              const isPicked = picked[o.name] === value;
              const wouldBe = variantFor(variants, options, { ...picked, [o.name]: value });
              const soldOut = wouldBe !== null && wouldBe.countInStock <= 0;
              return (
                <label
                  key={value}
                  className={`shop-choice btn btn-sm ${isPicked ? 'btn-primary' : 'btn-outline-secondary'}${possible ? '' : ' disabled'}${soldOut ? ' text-decoration-line-through' : ''}`}
                  data-early={earlyKey('option', o.name, value)}
                  style={{ minWidth: '2.75rem' }}
                >
                  <input
                    type="radio"
                    className="visually-hidden"
                    name={`option-${o.name}`}
                    value={value}
                    checked={isPicked}
                    disabled={!possible}
                    onChange={() => pick(o.name, value)}
                    aria-label={`${value}${soldOut ? ', out of stock' : ''}`}
                  />
                  {value}
                </label>
              );
            })}
          </div>
        </fieldset>
      ))}
      <p className="small text-body-secondary mb-0" aria-live="polite">
        {chosen
          ? `Chosen: ${chosen.name}, ${formatMoney(chosen.finalPrice)} (${stockText(chosen)})`
          : missing.length
            ? `Choose ${missing.join(' and ')}.`
            : 'This combination is not available.'}
      </p>
    </div>
  );
}
