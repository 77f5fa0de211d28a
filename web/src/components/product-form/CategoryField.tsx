import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { useFormState } from 'react-hook-form';
import type { ProductFormApi } from './ProductFields';

/** The select's value for "New category…" (never a category: the text input holds the name). */
const NEW_CATEGORY = '\u0000new';

/**
 * The product's category, chosen from the shop's categories (issue 36): a select of the existing
 * ones (plus the product's own, should it be no longer listed), and "New category…" to create one
 * on purpose, which opens a text field for its name. Nothing becomes a new category by a typo.
 */
export function CategoryField({ form, categories, hint }: { form: ProductFormApi; categories: readonly string[]; hint?: ReactNode }) {
  const id = `${useId()}-category`;
  const { control, register, setValue, setFocus, getValues } = form;
  const registered = register('category');
  const error = useFormState({ control, name: 'category' }).errors.category?.message;
  // The category the form opened with stays a choice even if no published product has it (yet).
  const [opened] = useState(() => getValues('category'));
  const options = useMemo(
    () => [...new Set([...categories, ...(opened.trim() ? [opened] : [])])].sort((a, b) => a.localeCompare(b, 'en')),
    [categories, opened],
  );
  const [isNew, setIsNew] = useState(false);
  const [focusRequest, setFocusRequest] = useState(0);
  useEffect(() => {
    if (focusRequest) setFocus('category');
  }, [focusRequest, setFocus]);

  const wiring = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined,
  };
  const invalid = error ? ' is-invalid' : '';
  const choose = (next: 'new' | 'existing') => {
    setIsNew(next === 'new');
    setValue('category', next === 'new' || !options.includes(opened) ? '' : opened, { shouldDirty: true });
    setFocusRequest((n) => n + 1);
  };

  return (
    <div className="mb-3">
      <label className="form-label" htmlFor={id}>
        {isNew ? 'New category name' : 'Category'}
      </label>
      {isNew ? (
        <div className="d-flex flex-wrap gap-2">
          <input type="text" className={`form-control flex-grow-1 w-auto${invalid}`} {...wiring} {...registered} />
          <button type="button" className="btn btn-outline-secondary" onClick={() => choose('existing')}>
            Choose an existing category
          </button>
        </div>
      ) : (
        <select
          className={`form-select${invalid}`}
          {...wiring}
          {...registered}
          onChange={(e) => {
            if (e.target.value === NEW_CATEGORY) choose('new');
            else void registered.onChange(e);
          }}
        >
          <option value="">Choose a category…</option>
          {options.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
          <option value={NEW_CATEGORY}>New category…</option>
        </select>
      )}
      {error && (
        <div id={`${id}-error`} className="invalid-feedback d-block">
          {error}
        </div>
      )}
      {hint && (
        <div id={`${id}-hint`} className="form-text">
          {hint}
        </div>
      )}
    </div>
  );
}
