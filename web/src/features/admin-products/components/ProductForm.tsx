import { STOCK_CHANGED_CODE, SUPPLIER_PRODUCT_FIELDS_CODE, type Product } from '@shop/contracts';
import { PRODUCT_FORM_MESSAGES } from '@shop/contracts/constants';
import { useEffect, useId, useState, type ChangeEvent } from 'react';
import { useWatch } from 'react-hook-form';
import { toast } from '../../../lib/toast';
import {
  AdditionalImageList, hasFieldMessage, ProductField, ProductFieldMessage, ProductFlagFields, useProductForm,
} from '../../../components/product-form/ProductFields';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { productToFormValues, showServerFieldErrors, type ProductFormOutput } from '../../../lib/product-form';
import { useCategories } from '../../products/api/get-categories';
import { getProductById } from '../api/get-product-by-id';
import { useUpdateProduct, type UpdateProductBody } from '../api/update-product';
import { useUploadImage } from '../api/upload-image';
import { SupplierFlagFields, SupplierLockedFields } from './SupplierLockedFields';

export const UPLOAD_NOTICE = 'Image uploaded successfully. Click Update to apply it.';
export const REMOVE_NOTICE = 'Image removed successfully. Click Update to apply it.';
/** SPEC.md section 9: the upload notice clears after 2 s. */
export const NOTICE_MS = 2000;

/**
 * The body of a save: the stock only when the administrator changed it from the value the form
 * loaded (with that value, so the server refuses it if orders changed the stock meanwhile: a stale
 * form never writes back stock that was sold); a supplier product's price, sale and stock never.
 */
export function updateBody(product: Product, values: ProductFormOutput, stockWas: number): UpdateProductBody {
  const { countInStock, price, isOnSale, saleDiscount, ...rest } = values;
  if (product.cjData) return { _id: product._id, ...rest };
  const body: UpdateProductBody = { _id: product._id, ...rest, price, isOnSale, saleDiscount };
  if (countInStock !== stockWas) {
    body.countInStock = countInStock;
    body.countInStockWas = stockWas;
  }
  return body;
}

/**
 * Every product field with the spec's validation; uploads change the form only, Update saves. A
 * supplier (CJ) product's price, sale and stock are shown read-only, with a link to its CJ page.
 */
export function ProductForm({ product, onSaved }: { product: Product; onSaved: () => void }) {
  const uid = useId();
  const isSupplierProduct = Boolean(product.cjData);
  /** The stock the form's value is a change from: as loaded, or as read again after a 409. */
  const [stockWas, setStockWas] = useState(product.countInStock);
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
      else setValue('images', [...images, secure_url], { shouldValidate: true, shouldDirty: true });
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
      { shouldValidate: true, shouldDirty: true },
    );
    setNotice(REMOVE_NOTICE);
  };

  const submit = async (values: ProductFormOutput) => {
    try {
      await updateProduct.mutateAsync(updateBody(product, values, stockWas));
      toast.success(PRODUCT_FORM_MESSAGES.updated);
      onSaved();
    } catch (err) {
      // Orders changed the stock since the form loaded: the message says to what; the next save
      // is a change from that stock (an intentional override).
      if (err instanceof ApiError && err.code === STOCK_CHANGED_CODE) {
        try {
          setStockWas((await getProductById(product._id)).countInStock);
        } catch {
          // The next save is refused again and reads the stock again.
        }
      }
      // A supplier product's price, sale and stock have no inputs here: the message says where they are set.
      if (err instanceof ApiError && err.code === SUPPLIER_PRODUCT_FIELDS_CODE) {
        toast.error(err.message);
        return;
      }
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
      {isSupplierProduct ? <SupplierLockedFields product={product} /> : <ProductField form={form} name="price" />}
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
      <fieldset className="mb-3" aria-describedby={hasFieldMessage(form, 'images') ? `${uid}-images-error` : undefined}>
        <legend className="form-label fs-6">Additional Images</legend>
        <AdditionalImageList images={images} onRemove={removeImage} />
        <ProductFieldMessage form={form} name="images" id={`${uid}-images-error`} />
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
      {!isSupplierProduct && <ProductField form={form} name="countInStock" />}
      <ProductField form={form} name="description" />
      {isSupplierProduct ? <SupplierFlagFields form={form} /> : <ProductFlagFields form={form} />}
      <button type="submit" className="btn btn-primary" disabled={hasErrors || isSubmitting}>
        Update
      </button>
    </form>
  );
}
