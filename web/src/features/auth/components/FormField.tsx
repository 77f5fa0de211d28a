import type { InputHTMLAttributes } from 'react';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';

/** A labelled Bootstrap input with its validation message tied to it (aria-invalid / aria-describedby). */
export function FormField({
  id,
  label,
  registration,
  error,
  ...inputProps
}: { id: string; label: string; registration: UseFormRegisterReturn; error?: FieldError | undefined } & Omit<InputHTMLAttributes<HTMLInputElement>, 'id'>) {
  const errorId = `${id}-error`;
  return (
    <div className="mb-3">
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      <input
        id={id}
        className={`form-control ${error ? 'is-invalid' : ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...inputProps}
        {...registration}
      />
      {error?.message && (
        <div id={errorId} className="invalid-feedback">
          {error.message}
        </div>
      )}
    </div>
  );
}
