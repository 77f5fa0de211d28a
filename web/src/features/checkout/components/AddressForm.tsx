import type { addressBodySchema, AddressBody } from '@shop/contracts';
import { useEffect, useId } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { MessageBox } from '../../../components/MessageBox';
import { lazyResolver } from '../../../lib/lazy-resolver';
import { alertMessageFor, applyFieldErrors } from '../../auth';

type AddressFormValues = z.input<typeof addressBodySchema>;

const FIELDS = [
  { name: 'fullName', label: 'Full Name', autoComplete: 'name' },
  { name: 'address', label: 'Address', autoComplete: 'street-address' },
  { name: 'city', label: 'City', autoComplete: 'address-level2' },
  { name: 'postalCode', label: 'Postal Code', autoComplete: 'postal-code' },
  { name: 'country', label: 'Country', autoComplete: 'country-name' },
] as const;

const FIELD_NAMES = ['fullName', 'address', 'city', 'postalCode', 'country'] as const;

const resolver = lazyResolver(() => import('../lib/address-resolver').then((m) => m.addressResolver));

const EMPTY: AddressFormValues = { fullName: '', address: '', city: '', postalCode: '', country: '', isDefault: false };

/**
 * Full Name, Address, City, Postal Code, Country (all required). A server refusal is shown once: its
 * per-field messages beside their fields, anything else above the buttons.
 */
export function AddressForm({
  defaultValues,
  submitLabel,
  isPending,
  error,
  showDefaultOption = false,
  onSubmit,
  onCancel,
}: {
  defaultValues?: Partial<AddressFormValues>;
  submitLabel: string;
  isPending?: boolean;
  /** The failed save's error (an ApiError with fieldErrors, or any error). */
  error?: unknown;
  showDefaultOption?: boolean;
  onSubmit: (values: AddressBody) => void | Promise<void>;
  onCancel?: () => void;
}) {
  const idPrefix = useId();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<AddressFormValues, unknown, AddressBody>({
    resolver,
    defaultValues: { ...EMPTY, ...defaultValues },
  });
  useEffect(() => {
    if (error) applyFieldErrors(error, setError, FIELD_NAMES);
  }, [error, setError]);
  const alert = error ? alertMessageFor(error, FIELD_NAMES) : null;

  return (
    <Form noValidate onSubmit={handleSubmit(onSubmit)}>
      {FIELDS.map((field) => {
        const id = `${idPrefix}-${field.name}`;
        const message = errors[field.name]?.message;
        return (
          <Form.Group className="mb-3" controlId={id} key={field.name}>
            <Form.Label>{field.label}</Form.Label>
            <Form.Control
              {...register(field.name)}
              autoComplete={field.autoComplete}
              required
              isInvalid={Boolean(message)}
              aria-describedby={message ? `${id}-error` : undefined}
            />
            <Form.Control.Feedback type="invalid" id={`${id}-error`}>
              {message}
            </Form.Control.Feedback>
          </Form.Group>
        );
      })}
      {showDefaultOption && <Form.Check className="mb-3" id={`${idPrefix}-isDefault`} label="Set as default address" {...register('isDefault')} />}
      {alert && <MessageBox variant="danger">{alert}</MessageBox>}
      <div className="d-flex gap-2">
        <Button type="submit" variant="primary" disabled={isPending}>
          {submitLabel}
        </Button>
        {onCancel && (
          <Button type="button" variant="outline-secondary" onClick={onCancel} disabled={isPending}>
            Cancel
          </Button>
        )}
      </div>
    </Form>
  );
}
