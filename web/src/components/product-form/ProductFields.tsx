import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useRef, type ChangeEvent, type ReactNode } from 'react';
import { useForm, useWatch, type FieldError, type Resolver, type UseFormReturn } from 'react-hook-form';
import { productFormSchema, type ProductFormField, type ProductFormOutput, type ProductFormValues } from '../../lib/product-form';

export type ProductFormApi = UseFormReturn<ProductFormValues, unknown, ProductFormOutput>;

/**
 * The product form's state with the spec's rules, shared by the product and the supplier product
 * forms: checked when a field is left, again on each change. The sale discount's message depends on
 * the price too (the price after the discount must stay at least $0.01), so once the discount has
 * been checked it is checked again whenever the price, the discount or On Sale changes (only on a
 * change, so a server's message stays until then).
 */
export function useProductForm(defaultValues: ProductFormValues): ProductFormApi {
  const form = useForm<ProductFormValues, unknown, ProductFormOutput>({
    // The inputs always hold every field, a stricter shape than the schema's input.
    resolver: zodResolver(productFormSchema) as Resolver<ProductFormValues, unknown, ProductFormOutput>,
    defaultValues,
    mode: 'onTouched',
    reValidateMode: 'onChange',
  });
  const { control, trigger, getFieldState, formState } = form;
  const [price, saleDiscount, isOnSale] = useWatch({ control, name: ['price', 'saleDiscount', 'isOnSale'] });
  const { isSubmitted } = formState;
  const watched = useRef({ price, saleDiscount, isOnSale });
  useEffect(() => {
    const before = watched.current;
    watched.current = { price, saleDiscount, isOnSale };
    if (before.price === price && before.saleDiscount === saleDiscount && before.isOnSale === isOnSale) return;
    if (isOnSale && (isSubmitted || getFieldState('saleDiscount').isTouched || getFieldState('saleDiscount').invalid)) void trigger('saleDiscount');
  }, [price, saleDiscount, isOnSale, isSubmitted, getFieldState, trigger]);
  return form;
}

function Feedback({ id, error }: { id: string; error?: FieldError }) {
  if (!error?.message) return null;
  return (
    <div id={id} className="invalid-feedback d-block">
      {error.message}
    </div>
  );
}

type InputField = Exclude<ProductFormField, 'images' | 'isTodaysDeal' | 'isGift' | 'isOnSale'>;

const LABELS: Record<InputField, string> = {
  name: 'Name',
  slug: 'Slug',
  price: 'Price',
  image: 'Image File',
  category: 'Category',
  brand: 'Brand',
  countInStock: 'Count In Stock',
  description: 'Description',
  saleDiscount: 'Sale Discount (%)',
};

/**
 * One labelled product field with its invalid state and message wired for assistive technology.
 * `before` sits left of the input (an image preview; pass null while there is none, so the input
 * keeps its place in the tree); `children` below it (a hint, a datalist).
 */
export function ProductField({
  form,
  name,
  label = LABELS[name],
  rows,
  list,
  before,
  onEdit,
  children,
}: {
  form: ProductFormApi;
  name: InputField;
  label?: string;
  /** Rows of the description's text area. */
  rows?: number;
  /** id of a datalist of suggestions. */
  list?: string;
  before?: ReactNode;
  /** Called with the text as the administrator types it (not when the form sets the value). */
  onEdit?: (value: string) => void;
  children?: ReactNode;
}) {
  const id = `${useId()}-${name}`;
  const error = form.formState.errors[name];
  const wiring = {
    id,
    className: `form-control${error ? ' is-invalid' : ''}`,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
  };
  let input: ReactNode;
  if (name === 'description') input = <textarea rows={rows ?? 4} {...wiring} {...form.register(name)} />;
  // Numbers are kept as the text typed: the schema reads it with the server's parsers (decimal notation only).
  else if (name === 'price') input = <input type="number" min={0} step={0.01} inputMode="decimal" {...wiring} {...form.register(name)} />;
  else if (name === 'countInStock') input = <input type="number" min={0} step={1} inputMode="numeric" {...wiring} {...form.register(name)} />;
  else if (name === 'saleDiscount') input = <input type="number" min={0} max={100} step={1} inputMode="numeric" {...wiring} {...form.register(name)} />;
  else input = <input type="text" list={list} {...wiring} {...form.register(name, onEdit ? { onChange: (e: ChangeEvent<HTMLInputElement>) => onEdit(e.target.value) } : undefined)} />;
  return (
    <div className="mb-3">
      <label className="form-label" htmlFor={id}>
        {label}
      </label>
      {before !== undefined ? (
        <div className="d-flex gap-2 align-items-start">
          {before}
          {input}
        </div>
      ) : (
        input
      )}
      <Feedback id={`${id}-error`} error={error} />
      {children}
    </div>
  );
}

/**
 * The message of a field that has no input of its own (the additional images: a server's
 * 'Images must be uploaded images...'), with the id its fieldset points at.
 */
export function ProductFieldMessage({ form, name, id }: { form: ProductFormApi; name: 'images'; id: string }) {
  // The server's error is on the list; the form's own check may be on one item (images.1).
  const error: unknown = form.formState.errors[name];
  const message = (error as FieldError | undefined)?.message ?? (Array.isArray(error) ? (error as Array<FieldError | undefined>).find((e) => e?.message)?.message : undefined);
  return <Feedback id={id} error={message ? { type: 'validate', message } : undefined} />;
}

/** Whether `name` (a field without an input of its own) has a message to show. */
export const hasFieldMessage = (form: ProductFormApi, name: 'images') => Boolean(form.formState.errors[name]);

/** The additional images with a Remove button each, or 'No additional images'. */
export function AdditionalImageList({ images, onRemove }: { images: string[]; onRemove: (src: string) => void }) {
  if (images.length === 0) return <p className="text-body-secondary small mb-2">No additional images</p>;
  return (
    <ul className="list-group mb-2">
      {images.map((src) => (
        <li key={src} className="list-group-item d-flex align-items-center gap-2">
          <img src={src} alt="" width={48} height={48} style={{ objectFit: 'cover' }} loading="lazy" />
          <span className="text-truncate flex-grow-1 small">{src}</span>
          <button type="button" className="btn btn-outline-danger btn-sm" aria-label={`Remove image ${src}`} onClick={() => onRemove(src)}>
            Remove
          </button>
        </li>
      ))}
    </ul>
  );
}

/** Today's Deal, Gift and On Sale, and the sale discount while On Sale is checked. */
export function ProductFlagFields({ form }: { form: ProductFormApi }) {
  const uid = useId();
  const isOnSale = useWatch({ control: form.control, name: 'isOnSale' });
  const flags = [
    { name: 'isTodaysDeal', label: "Today's Deal" },
    { name: 'isGift', label: 'Gift' },
    { name: 'isOnSale', label: 'On Sale' },
  ] as const;
  return (
    <>
      <div className="mb-3">
        {flags.map((flag) => (
          <div key={flag.name} className="form-check">
            <input
              type="checkbox"
              className="form-check-input"
              id={`${uid}-${flag.name}`}
              {...form.register(flag.name, flag.name === 'isOnSale' ? { deps: ['saleDiscount'] } : undefined)}
            />
            <label className="form-check-label" htmlFor={`${uid}-${flag.name}`}>
              {flag.label}
            </label>
          </div>
        ))}
      </div>
      {isOnSale && <ProductField form={form} name="saleDiscount" />}
    </>
  );
}
