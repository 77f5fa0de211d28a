import { zodResolver } from '@hookform/resolvers/zod';
import { CJ_MESSAGES } from '@shop/contracts/supplier-constants';
import { useId, useState } from 'react';
import { useForm, useWatch, type FieldError, type Resolver } from 'react-hook-form';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { formatMoney, roundMoney } from '../../../lib/format';
import {
  productFormFields,
  productFormSchema,
  type ProductFormField,
  type ProductFormOutput,
  type ProductFormValues,
} from '../../admin-products/lib/product-form-schema';
import { useSaveCjProduct } from '../api/save-cj-product';
import type { CjFormSource } from '../lib/form-source';

function Feedback({ id, error }: { id: string; error?: FieldError | { message?: string } }) {
  if (!error?.message) return null;
  return (
    <div id={id} className="invalid-feedback d-block">
      {error.message}
    </div>
  );
}

/**
 * The supplier product edit form (SPEC section 2, "Edit CJ Product"): the product form's fields and
 * rules (the admin product form's own schema), a variant picker, the supplier's images to choose
 * from, and 'Save CJ Product'. On success it calls `onSaved` (the page says 'Product saved
 * successfully!' and goes back to the list after 2 s).
 */
export function CjProductForm({ source, onSaved }: { source: CjFormSource; onSaved: () => void }) {
  const uid = useId();
  const fid = (name: string) => `${uid}-${name}`;
  const save = useSaveCjProduct();
  const [vid, setVid] = useState(source.vid);
  const [formError, setFormError] = useState<string | null>(null);
  const [isSaved, setIsSaved] = useState(false);
  const {
    register,
    handleSubmit,
    control,
    setValue,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ProductFormValues, unknown, ProductFormOutput>({
    resolver: zodResolver(productFormSchema) as Resolver<ProductFormValues, unknown, ProductFormOutput>,
    defaultValues: source.initial,
    mode: 'onTouched',
    reValidateMode: 'onChange',
  });

  const [image, images, price, isOnSale, saleDiscount] = useWatch({ control, name: ['image', 'images', 'price', 'isOnSale', 'saleDiscount'] });
  const hasErrors = Object.keys(errors).length > 0;
  const chosen = source.variants.find((v) => v.vid === vid);
  const cost = chosen?.cost ?? null;
  const sellPrice = Number.isFinite(price) ? roundMoney(price * (isOnSale && saleDiscount > 0 ? (100 - saleDiscount) / 100 : 1)) : null;
  const margin = cost !== null && sellPrice !== null ? roundMoney(sellPrice - cost) : null;

  const submit = async (values: ProductFormOutput) => {
    setFormError(null);
    if (!source.pid) return setFormError(CJ_MESSAGES.pidMissing);
    if (!vid) return setFormError(CJ_MESSAGES.vidMissing);
    try {
      await save.mutateAsync({ pid: source.pid, isSaved: true, vid, ...values });
      setIsSaved(true);
      onSaved();
    } catch (err) {
      if (err instanceof ApiError && err.fieldErrors && Object.keys(err.fieldErrors).length > 0) {
        let shown = false;
        for (const [field, message] of Object.entries(err.fieldErrors)) {
          if ((productFormFields as string[]).includes(field)) {
            setError(field as ProductFormField, { type: 'server', message }, { shouldFocus: !shown });
            shown = true;
          }
        }
        if (!shown) setFormError(err.message);
      } else {
        setFormError(err instanceof ApiError && err.status < 500 ? err.message : `Failed to save the product: ${getErrorMessage(err)}`);
      }
    }
  };

  const field = (name: ProductFormField) => ({
    id: fid(name),
    className: `form-control${errors[name] ? ' is-invalid' : ''}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? fid(`${name}-error`) : undefined,
  });

  const otherImages = source.supplierImages.filter((src) => src !== image && !images.includes(src));

  return (
    <form onSubmit={handleSubmit(submit)} noValidate aria-label="Supplier product">
      {formError && (
        <div className="alert alert-danger" role="alert">
          {formError}
        </div>
      )}
      {source.isDiscontinued && (
        <div className="alert alert-warning" role="status">
          {CJ_MESSAGES.discontinued}: shoppers cannot buy it.
        </div>
      )}
      <fieldset className="mb-4">
        <legend className="form-label fs-6 fw-semibold">Variant</legend>
        {source.variants.length === 0 ? (
          <p className="text-body-secondary small">This supplier product has no variants.</p>
        ) : (
          <div className="d-flex flex-wrap gap-2" role="radiogroup" aria-label="Variant">
            {source.variants.map((v) => (
              <label key={v.vid} className={`card p-2 cj-variant ${v.vid === vid ? 'border-primary' : ''}`} style={{ width: '9rem', cursor: 'pointer' }}>
                <input
                  type="radio"
                  className="form-check-input me-1"
                  name={fid('variant')}
                  value={v.vid}
                  checked={v.vid === vid}
                  onChange={() => setVid(v.vid)}
                />
                {v.image && <img src={v.image} alt="" width={120} height={120} className="img-fluid rounded my-1" loading="lazy" />}
                <span className="small">{v.name}</span>
                {v.cost !== null && <span className="small text-body-secondary">Cost {formatMoney(v.cost)}</span>}
              </label>
            ))}
          </div>
        )}
      </fieldset>
      <div className="mb-3">
        <label className="form-label" htmlFor={fid('name')}>
          Name
        </label>
        <input type="text" {...field('name')} {...register('name')} />
        <Feedback id={fid('name-error')} error={errors.name} />
      </div>
      <div className="mb-3">
        <label className="form-label" htmlFor={fid('slug')}>
          Slug
        </label>
        <input type="text" {...field('slug')} {...register('slug')} />
        <Feedback id={fid('slug-error')} error={errors.slug} />
      </div>
      <div className="mb-3">
        <label className="form-label" htmlFor={fid('price')}>
          Price
        </label>
        <input type="number" min={0} step={0.01} inputMode="decimal" {...field('price')} {...register('price', { valueAsNumber: true })} />
        <Feedback id={fid('price-error')} error={errors.price} />
        {cost !== null && (
          <div className="form-text" data-testid="cj-margin">
            Supplier cost {formatMoney(cost)}
            {margin !== null && sellPrice !== null && sellPrice > 0 && (
              <>
                {' '}
                · Margin{' '}
                <span className={margin < 0 ? 'text-danger fw-semibold' : ''}>
                  {formatMoney(margin)} ({Math.round((margin / sellPrice) * 1000) / 10}%)
                </span>
              </>
            )}
          </div>
        )}
      </div>
      <div className="mb-3">
        <label className="form-label" htmlFor={fid('image')}>
          Main Image
        </label>
        <div className="d-flex gap-2 align-items-start">
          {image && <img src={image} alt="" width={64} height={64} className="rounded border" style={{ objectFit: 'cover' }} />}
          <input type="text" {...field('image')} {...register('image')} />
        </div>
        <Feedback id={fid('image-error')} error={errors.image} />
      </div>
      <fieldset className="mb-3">
        <legend className="form-label fs-6">Additional Images</legend>
        {images.length === 0 ? (
          <p className="text-body-secondary small mb-2">No additional images</p>
        ) : (
          <ul className="list-group mb-2">
            {images.map((src) => (
              <li key={src} className="list-group-item d-flex align-items-center gap-2">
                <img src={src} alt="" width={48} height={48} style={{ objectFit: 'cover' }} loading="lazy" />
                <span className="text-truncate flex-grow-1 small">{src}</span>
                <button
                  type="button"
                  className="btn btn-outline-danger btn-sm"
                  aria-label={`Remove image ${src}`}
                  onClick={() => setValue('images', images.filter((x) => x !== src), { shouldDirty: true })}
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )}
        {otherImages.length > 0 && (
          <div className="d-flex flex-wrap gap-2 align-items-center">
            <span className="small text-body-secondary">Supplier images:</span>
            {otherImages.map((src) => (
              <span key={src} className="d-inline-flex flex-column align-items-center gap-1">
                <img src={src} alt="" width={56} height={56} className="rounded border" style={{ objectFit: 'cover' }} loading="lazy" />
                <span className="btn-group btn-group-sm">
                  <button type="button" className="btn btn-outline-secondary" aria-label={`Add image ${src}`} onClick={() => setValue('images', [...images, src], { shouldDirty: true })}>
                    Add
                  </button>
                  <button
                    type="button"
                    className="btn btn-outline-secondary"
                    aria-label={`Use ${src} as the main image`}
                    onClick={() => setValue('image', src, { shouldValidate: true, shouldDirty: true })}
                  >
                    Main
                  </button>
                </span>
              </span>
            ))}
          </div>
        )}
      </fieldset>
      <div className="mb-3">
        <label className="form-label" htmlFor={fid('category')}>
          Category
        </label>
        <input type="text" {...field('category')} {...register('category')} />
        <Feedback id={fid('category-error')} error={errors.category} />
      </div>
      <div className="mb-3">
        <label className="form-label" htmlFor={fid('countInStock')}>
          Count In Stock
        </label>
        <input type="number" min={0} step={1} inputMode="numeric" {...field('countInStock')} {...register('countInStock', { valueAsNumber: true })} />
        <Feedback id={fid('countInStock-error')} error={errors.countInStock} />
      </div>
      <div className="mb-3">
        <label className="form-label" htmlFor={fid('brand')}>
          Brand
        </label>
        <input type="text" {...field('brand')} {...register('brand')} />
        <Feedback id={fid('brand-error')} error={errors.brand} />
      </div>
      <div className="mb-3">
        <label className="form-label" htmlFor={fid('description')}>
          Description
        </label>
        <textarea rows={5} {...field('description')} {...register('description')} />
        <Feedback id={fid('description-error')} error={errors.description} />
      </div>
      <div className="mb-3">
        <div className="form-check">
          <input type="checkbox" className="form-check-input" id={fid('isTodaysDeal')} {...register('isTodaysDeal')} />
          <label className="form-check-label" htmlFor={fid('isTodaysDeal')}>
            Today&apos;s Deal
          </label>
        </div>
        <div className="form-check">
          <input type="checkbox" className="form-check-input" id={fid('isGift')} {...register('isGift')} />
          <label className="form-check-label" htmlFor={fid('isGift')}>
            Gift
          </label>
        </div>
        <div className="form-check">
          <input type="checkbox" className="form-check-input" id={fid('isOnSale')} {...register('isOnSale', { deps: ['saleDiscount'] })} />
          <label className="form-check-label" htmlFor={fid('isOnSale')}>
            On Sale
          </label>
        </div>
      </div>
      {isOnSale && (
        <div className="mb-3">
          <label className="form-label" htmlFor={fid('saleDiscount')}>
            Sale Discount (%)
          </label>
          <input
            type="number"
            min={0}
            max={100}
            step={1}
            inputMode="numeric"
            {...field('saleDiscount')}
            {...register('saleDiscount', { setValueAs: (v: unknown) => (v === '' ? 0 : Number(v)) })}
          />
          <Feedback id={fid('saleDiscount-error')} error={errors.saleDiscount} />
        </div>
      )}
      <button type="submit" className="btn btn-primary" disabled={hasErrors || isSubmitting || save.isPending || isSaved}>
        Save CJ Product
      </button>
    </form>
  );
}
