import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError, getErrorMessage } from '../../../lib/api-client';

/** Puts the server's per-field messages (`fieldErrors`) on the form's fields that exist. */
export function applyFieldErrors<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>, fields: readonly Path<T>[]) {
  if (!(error instanceof ApiError) || !error.fieldErrors) return;
  for (const [field, message] of Object.entries(error.fieldErrors)) {
    if ((fields as readonly string[]).includes(field)) setError(field as Path<T>, { type: 'server', message });
  }
}

/**
 * The message for the form's alert, or null when the error is already shown beside one of the
 * form's fields: each message appears once.
 */
export function alertMessageFor(error: unknown, fields: readonly string[]): string | null {
  if (error instanceof ApiError && error.fieldErrors && Object.keys(error.fieldErrors).some((f) => fields.includes(f))) return null;
  return error ? getErrorMessage(error) : null;
}
