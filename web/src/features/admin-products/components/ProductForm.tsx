import { zodResolver } from '@hookform/resolvers/zod';
import type { Product } from '@shop/contracts';
import { PRODUCT_FORM_MESSAGES } from '@shop/contracts/constants';
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { useForm, useWatch, type FieldError, type Resolver } from 'react-hook-form';
import { toast } from 'react-toastify';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { useCategories } from '../../products/api/get-categories';
import { useUpdateProduct } from '../api/update-product';
import { useUploadImage } from '../api/upload-image';
import {
  productFormFields,
  productFormSchema,
  type ProductFormField,
  type ProductFormOutput,
  type ProductFormValues,
} from '../lib/product-form-schema';
import { productFieldMessage } from '../lib/server-field-errors';

export const UPLOAD_NOTICE = 'Image uploaded successfully. Click Update to apply it.';
export const REMOVE_NOTICE = 'Image removed successfully. Click Update to apply it.';
/** SPEC.md section 9: the upload notice clears after 2 s. */
export const NOTICE_MS = 2000;

function toFormValues(p: Product): ProductFormValues {
  return {
    name: p.name,
    slug: p.slug,
    price: p.price,
    image: p.image,
    images: p.images,
    category: p.category,
    brand: p.brand,
    countInStock: p.countInStock,
    description: p.description,
    isTodaysDeal: p.isTodaysDeal,
    isGift: p.isGift,
    isOnSale: p.isOnSale,
    saleDiscount: p.saleDiscount,
  };
}

function Feedback({ id, error }: { id: string; error?: FieldError | { message?: string } }) {
  if (!error?.message) return null;
  return (
    <div id={id} className="invalid-feedback d-block">
      {error.message}
    </div>
  );
}

/** Every product field with the spec's validation; uploads change the form only, Update saves. */
export function ProductForm({ product, onSaved }: { product: Product; onSaved: () => void }) {
  const uid = useId();
  const fid = (name: string) => `${uid}-${name}`;
  const { data: categories = [] } = useCategories();
  const updateProduct = useUpdateProduct();
  const upload = useUploadImage();
  const [notice, setNotice] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    control,
    setValue,
    setError,
    trigger,
    getFieldState,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm<ProductFormValues, unknown, ProductFormOutput>({
    // The inputs always hold every field, a stricter shape than the schema's input.
    resolver: zodResolver(productFormSchema) as Resolver<ProductFormValues, unknown, ProductFormOutput>,
    defaultValues: toFormValues(product),
    mode: 'onTouched',
    reValidateMode: 'onChange',
  });

  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  const isOnSale = useWatch({ control, name: 'isOnSale' });
  const images = useWatch({ control, name: 'images' });
  const price = useWatch({ control, name: 'price' });
  const saleDiscount = useWatch({ control, name: 'saleDiscount' });

  // The discount's message depends on the price too (the price after the discount must stay at
  // least $0.01): once the discount has been checked, check it again whenever the price, the
  // discount or On Sale changes (only on a change, so a server's message stays until then).
  const watched = useRef({ price, saleDiscount, isOnSale });
  useEffect(() => {
    const before = watched.current;
    watched.current = { price, saleDiscount, isOnSale };
    if (before.price === price && before.saleDiscount === saleDiscount && before.isOnSale === isOnSale) return;
    if (isOnSale && (isSubmitted || getFieldState('saleDiscount').isTouched || getFieldState('saleDiscount').invalid)) void trigger('saleDiscount');
  }, [price, saleDiscount, isOnSale, isSubmitted, getFieldState, trigger]);
  const hasErrors = Object.keys(errors).length > 0;

  const uploadFile = async (e: ChangeEvent<HTMLInputElement>, target: 'image' | 'images') => {
    const input = e.target;
    const file = input.files?.[0];
    if (!file) return;
    try {
      const { secure_url } = await upload.mutateAsync(file);
      if (target === 'image') setValue('image', secure_url, { shouldValidate: true, shouldDirty: true });
      else setValue('images', [...images, secure_url], { shouldDirty: true });
      setNotice(UPLOAD_NOTICE);
    } catch (err) {
      toast.error(getErrorMessage(err));
    } finally {
      input.value = '';
    }
  };

  const removeImage = (src: string) => {
    setValue(
      'images',
      images.filter((x) => x !== src),
      { shouldDirty: true },
    );
    setNotice(REMOVE_NOTICE);
  };

  const submit = async (values: ProductFormOutput) => {
    try {
      await updateProduct.mutateAsync({ _id: product._id, ...values });
      toast.success(PRODUCT_FORM_MESSAGES.updated);
      onSaved();
    } catch (err) {
      // Each message is shown once: beside its field when the server names one, else in one toast.
      if (err instanceof ApiError && err.fieldErrors && Object.keys(err.fieldErrors).length > 0) {
        let shown = false;
        for (const [field, message] of Object.entries(err.fieldErrors)) {
          if ((productFormFields as string[]).includes(field)) {
            const name = field as ProductFormField;
            setError(name, { type: 'server', message: productFieldMessage(name, message) }, { shouldFocus: !shown });
            shown = true;
          }
        }
        if (!shown) toast.error(err.message);
      } else if (err instanceof ApiError && err.status >= 400 && err.status < 500) {
        toast.error(err.message);
      } else {
        toast.error('Failed to update product');
      }
    }
  };

  // Accessible wiring of a text field: label, invalid state and its message.
  const field = (name: ProductFormField) => ({
    id: fid(name),
    className: `form-control${errors[name] ? ' is-invalid' : ''}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? fid(`${name}-error`) : undefined,
  });

  return (
    <form onSubmit={handleSubmit(submit)} noValidate>
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
      </div>
      <div className="mb-3">
        <label className="form-label" htmlFor={fid('image')}>
          Image File
        </label>
        <input type="text" {...field('image')} {...register('image')} />
        <Feedback id={fid('image-error')} error={errors.image} />
      </div>
      <div className="mb-3">
        <label className="form-label" htmlFor={fid('upload')}>
          Upload Image
        </label>
        <input id={fid('upload')} type="file" accept="image/*" className="form-control" onChange={(e) => void uploadFile(e, 'image')} disabled={upload.isPending} />
      </div>
      {notice && (
        <div className="alert alert-success py-2" role="status">
          {notice}
        </div>
      )}
      <fieldset className="mb-3">
        <legend className="form-label fs-6">Additional Images</legend>
        {images.length === 0 ? (
          <p className="text-body-secondary small mb-2">No additional images</p>
        ) : (
          <ul className="list-group mb-2">
            {images.map((src) => (
              <li key={src} className="list-group-item d-flex align-items-center gap-2">
                <img src={src} alt="" width={48} height={48} style={{ objectFit: 'cover' }} loading="lazy" />
                <span className="text-truncate flex-grow-1">{src}</span>
                <button type="button" className="btn btn-outline-danger btn-sm" aria-label={`Remove image ${src}`} onClick={() => removeImage(src)}>
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )}
        <label className="form-label" htmlFor={fid('upload-extra')}>
          Upload Additional Image
        </label>
        <input
          id={fid('upload-extra')}
          type="file"
          accept="image/*"
          className="form-control"
          onChange={(e) => void uploadFile(e, 'images')}
          disabled={upload.isPending}
        />
      </fieldset>
      <div className="mb-3">
        <label className="form-label" htmlFor={fid('category')}>
          Category
        </label>
        <input type="text" list={fid('categories')} {...field('category')} {...register('category')} />
        <datalist id={fid('categories')}>
          {categories.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
        <Feedback id={fid('category-error')} error={errors.category} />
      </div>
      <div className="mb-3">
        <label className="form-label" htmlFor={fid('brand')}>
          Brand
        </label>
        <input type="text" {...field('brand')} {...register('brand')} />
        <Feedback id={fid('brand-error')} error={errors.brand} />
      </div>
      <div className="mb-3">
        <label className="form-label" htmlFor={fid('countInStock')}>
          Count In Stock
        </label>
        <input type="number" min={0} step={1} inputMode="numeric" {...field('countInStock')} {...register('countInStock', { valueAsNumber: true })} />
        <Feedback id={fid('countInStock-error')} error={errors.countInStock} />
      </div>
      <div className="mb-3">
        <label className="form-label" htmlFor={fid('description')}>
          Description
        </label>
        <textarea rows={4} {...field('description')} {...register('description')} />
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
          <input type="number" min={0} max={100} step={1} inputMode="numeric" {...field('saleDiscount')} {...register('saleDiscount', { setValueAs: (v: unknown) => (v === '' ? 0 : Number(v)) })} />
          <Feedback id={fid('saleDiscount-error')} error={errors.saleDiscount} />
        </div>
      )}
      <button type="submit" className="btn btn-primary" disabled={hasErrors || isSubmitting}>
        Update
      </button>
    </form>
  );
}
