import { useState, type FormEvent } from 'react';

/**
 * The search box of an admin list: a labelled search field and a Search button. It submits the
 * trimmed text; it follows `value` when the address changes (Back, a cleared filter).
 */
export function ListSearchForm({
  id,
  label,
  placeholder,
  value,
  onSearch,
  small = false,
  className = 'd-flex gap-2 my-3',
  buttonAriaLabel,
  maxLength = 200,
}: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onSearch: (text: string) => void;
  small?: boolean;
  className?: string;
  buttonAriaLabel?: string;
  maxLength?: number;
}) {
  const [draft, setDraft] = useState(value);
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setDraft(value);
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSearch(draft.trim());
  };
  return (
    <form role="search" className={className} onSubmit={submit}>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input
        id={id}
        type="search"
        className={`form-control${small ? ' form-control-sm' : ''}`}
        placeholder={placeholder}
        value={draft}
        maxLength={maxLength}
        onChange={(e) => setDraft(e.target.value)}
      />
      <button type="submit" className={`btn btn-outline-primary${small ? ' btn-sm' : ''}`} aria-label={buttonAriaLabel}>
        Search
      </button>
    </form>
  );
}
