import { MAX_PRODUCT_OPTIONS } from '@shop/contracts';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { addValues, newOptionKey, type OptionDraft } from '../lib/variant-drafts';

function Feedback({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <div id={id} className="invalid-feedback d-block">
      {message}
    </div>
  );
}

/** One option: its name, its values as removable chips, and a field that adds values ("S, M, L", Enter or Add). */
function OptionEditor({ option, index, errors, isNew, onChange, onRemove }: {
  option: OptionDraft;
  index: number;
  errors: Record<string, string>;
  /** Just added: its name field takes the focus. */
  isNew: boolean;
  onChange: (next: OptionDraft) => void;
  onRemove: () => void;
}) {
  const uid = useId();
  const [typed, setTyped] = useState('');
  const nameRef = useRef<HTMLInputElement>(null);
  const valuesRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (isNew) nameRef.current?.focus();
  }, [isNew]);
  const nameError = errors[`options.${index}.name`];
  const valuesError = errors[`options.${index}.values`];
  const label = option.name.trim() || `option ${index + 1}`;

  const add = () => {
    if (!typed.trim()) return;
    onChange({ ...option, values: addValues(option.values, typed) });
    setTyped('');
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    // Enter adds the values instead of saving the form; Backspace in an empty field takes the last one back.
    if (e.key === 'Enter') {
      e.preventDefault();
      add();
    } else if (e.key === 'Backspace' && typed === '' && option.values.length) {
      onChange({ ...option, values: option.values.slice(0, -1) });
    }
  };

  return (
    <div className="card card-body mb-2 p-2" data-testid={`option-${index}`}>
      <div className="d-flex gap-2 align-items-end flex-wrap">
        <div className="flex-grow-1">
          <label className="form-label small mb-1" htmlFor={`${uid}-name`}>
            Option name
          </label>
          <input
            ref={nameRef}
            id={`${uid}-name`}
            type="text"
            className={`form-control form-control-sm${nameError ? ' is-invalid' : ''}`}
            placeholder="Size"
            value={option.name}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? `${uid}-name-error` : undefined}
            onChange={(e) => onChange({ ...option, name: e.target.value })}
          />
        </div>
        <button type="button" className="btn btn-outline-danger btn-sm" onClick={onRemove} aria-label={`Remove ${label}`}>
          Remove
        </button>
      </div>
      <Feedback id={`${uid}-name-error`} message={nameError} />
      <div className="mt-2">
        <span className="form-label small mb-1 d-block" id={`${uid}-values-label`}>
          Values
        </span>
        {option.values.length > 0 ? (
          <ul className="list-unstyled d-flex flex-wrap gap-1 mb-1" aria-labelledby={`${uid}-values-label`}>
            {option.values.map((value) => (
              <li key={value} className="badge rounded-pill text-bg-secondary d-inline-flex align-items-center gap-1 fw-normal fs-6">
                <span className="text-break">{value}</span>
                <button
                  type="button"
                  className="btn-close btn-close-white"
                  style={{ fontSize: '0.6rem' }}
                  aria-label={`Remove ${value} from ${label}`}
                  onClick={() => {
                    onChange({ ...option, values: option.values.filter((v) => v !== value) });
                    // The button goes with the chip: the focus stays in the option.
                    valuesRef.current?.focus();
                  }}
                />
              </li>
            ))}
          </ul>
        ) : (
          <p className="small text-body-secondary mb-1">No values yet</p>
        )}
        <div className="input-group input-group-sm">
          <input
            ref={valuesRef}
            type="text"
            className={`form-control${valuesError ? ' is-invalid' : ''}`}
            aria-label={`Add values to ${label}`}
            aria-invalid={valuesError ? true : undefined}
            aria-describedby={`${uid}-values-hint${valuesError ? ` ${uid}-values-error` : ''}`}
            placeholder="S, M, L"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            onKeyDown={onKeyDown}
          />
          <button type="button" className="btn btn-outline-secondary" onClick={add}>
            Add
          </button>
        </div>
        <div id={`${uid}-values-hint`} className="form-text">
          Separate values with commas; Enter adds them.
        </div>
        <Feedback id={`${uid}-values-error`} message={valuesError} />
      </div>
    </div>
  );
}

/**
 * The product form's Options section (issue 34): up to three options such as Size and Colour, each
 * with its values. Every combination of values is a variant, listed in the variant table below.
 */
export function ProductOptionsEditor({ options, errors, onChange }: {
  options: OptionDraft[];
  errors: Record<string, string>;
  onChange: (options: OptionDraft[]) => void;
}) {
  const optionsError = errors.options;
  const addRef = useRef<HTMLButtonElement>(null);
  // The option added last (its name takes the focus); removing one hands the focus to Add option.
  const [addedKey, setAddedKey] = useState<string | null>(null);
  const [focusAdd, setFocusAdd] = useState(0);
  useEffect(() => {
    if (focusAdd) addRef.current?.focus();
  }, [focusAdd]);
  return (
    <fieldset className="mb-3">
      <legend className="form-label fs-6 mb-1">Options</legend>
      <p className="form-text mt-0 mb-2">
        Sizes, colours...: up to {MAX_PRODUCT_OPTIONS} options. Each combination of their values is a variant with its own price and stock.
      </p>
      {options.map((option, i) => (
        <OptionEditor
          key={option.key}
          option={option}
          index={i}
          errors={errors}
          isNew={option.key === addedKey}
          onChange={(next) => onChange(options.map((o) => (o.key === option.key ? next : o)))}
          onRemove={() => {
            onChange(options.filter((o) => o.key !== option.key));
            setFocusAdd((n) => n + 1);
          }}
        />
      ))}
      {optionsError && <div className="invalid-feedback d-block mb-2">{optionsError}</div>}
      <button
        ref={addRef}
        type="button"
        className="btn btn-outline-primary btn-sm"
        disabled={options.length >= MAX_PRODUCT_OPTIONS}
        onClick={() => {
          const key = newOptionKey();
          setAddedKey(key);
          onChange([...options, { key, name: '', values: [] }]);
        }}
      >
        Add option
      </button>
    </fieldset>
  );
}
