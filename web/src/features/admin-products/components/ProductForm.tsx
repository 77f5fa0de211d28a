import type { Product } from '@shop/contracts';
import { PRODUCT_FORM_MESSAGES } from '@shop/contracts/constants';
import { useEffect, useId, useState, type ChangeEvent } from 'react';
import { useWatch } from 'react-hook-form';
import { toast } from '../../../lib/toast';
import { AdditionalImageList, ProductField, ProductFlagFields, useProductForm } from '../../../components/product-form/ProductFields';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { productToFormValues, showServerFieldErrors, type ProductFormOutput } from '../../../lib/product-form';
import { useCategories } from '../../products/api/get-categories';
import { useUpdateProduct } from '../api/update-product';
import { useUploadImage } from '../api/upload-image';

export const UPLOAD_NOTICE = 'Image uploaded successfully. Click Update to apply it.';
export const REMOVE_NOTICE = 'Image removed successfully. Click Update to apply it.';
/** SPEC.md section 9: the upload notice clears after 2 s. */
export const NOTICE_MS = 2000;

/** Every product field with the spec's validation; uploads change the form only, Update saves. */
export function ProductForm({ product, onSaved }: { product: Product; onSaved: () => void }) {
  const uid = useId();
  const { data: categories = [] } = useCategories();
  const updateProduct = useUpdateProduct();
  const upload = useUploadImage();
  const [notice, setNotice] = useState<string | null>(null);
  const form = useProductForm(productToFormValues(product));
  const {
    handleSubmit,
    control,
    setValue,
    setError,
    formState: { errors, isSubmitting },
  } = form;

  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  const images = useWatch({ control, name: 'images' });
  const image = useWatch({ control, name: 'image' });
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
      if (showServerFieldErrors(err, setError)) return;
      if (err instanceof ApiError && err.status >= 400 && err.status < 500) toast.error(err.message);
      else toast.error('Failed to update product');
    }
  };

  return (
    <form onSubmit={handleSubmit(submit)} noValidate>
      <ProductField form={form} name="name" />
      <ProductField form={form} name="slug" />
      <ProductField form={form} name="price" />
      <ProductField form={form} name="image" />
      <div className="mb-3">
        <label className="form-label" htmlFor={`${uid}-upload`}>
          Upload Image
        </label>
        <input id={`${uid}-upload`} type="file" accept="image/*" className="form-control" onChange={(e) => void uploadFile(e, 'image')} disabled={upload.isPending} />
        {image && (
          <img src={image} alt="Main image preview" className="img-thumbnail d-block mt-2" width={160} height={160} style={{ objectFit: 'contain' }} />
        )}
      </div>
      {notice && (
        <div className="alert alert-success py-2" role="status">
          {notice}
        </div>
      )}
      <fieldset className="mb-3">
        <legend className="form-label fs-6">Additional Images</legend>
        <AdditionalImageList images={images} onRemove={removeImage} />
        <label className="form-label" htmlFor={`${uid}-upload-extra`}>
          Upload Additional Image
        </label>
        <input
          id={`${uid}-upload-extra`}
          type="file"
          accept="image/*"
          className="form-control"
          onChange={(e) => void uploadFile(e, 'images')}
          disabled={upload.isPending}
        />
      </fieldset>
      <ProductField form={form} name="category" list={`${uid}-categories`}>
        <datalist id={`${uid}-categories`}>
          {categories.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
      </ProductField>
      <ProductField form={form} name="brand" />
      <ProductField form={form} name="countInStock" />
      <ProductField form={form} name="description" />
      <ProductFlagFields form={form} />
      <button type="submit" className="btn btn-primary" disabled={hasErrors || isSubmitting}>
        Update
      </button>
    </form>
  );
}
