import { STOCK_CHANGED_CODE, SUPPLIER_PRODUCT_FIELDS_CODE, type Product } from '@shop/contracts';
import { PRODUCT_FORM_MESSAGES } from '@shop/contracts/constants';
import { parseMoney, parseWholeNumber } from '@shop/contracts/numbers';
import { isSlugFollowingName, slugFromName } from '@shop/contracts/slugs';
import { useEffect, useId, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { useWatch } from 'react-hook-form';
import { toast } from '../../../lib/toast';
import { CategoryField } from '../../../components/product-form/CategoryField';
import {
  AdditionalImageList, hasFieldMessage, ProductField, ProductFieldMessage, ProductFlagFields, useProductForm,
} from '../../../components/product-form/ProductFields';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { formatMoney } from '../../../lib/format';
import { productToFormValues, showServerFieldErrors, type ProductFormOutput } from '../../../lib/product-form';
import { useCategories } from '../../products';
import { getProductById } from '../api/get-product-by-id';
import { useUpdateProduct, type UpdateProductBody } from '../api/update-product';
import { useUploadImage } from '../api/upload-image';
import {
  checkVariants, fillDrafts, initialVariants, variantRows, variantsBody, variantTotals, type OptionDraft, type VariantDraft, type VariantsState,
} from '../lib/variant-drafts';
import { ProductOptionsEditor } from './ProductOptionsEditor';
import { ProductVariantsTable } from './ProductVariantsTable';
import { SupplierFlagFields, SupplierLockedFields } from './SupplierLockedFields';

const wholeOrZero = (v: unknown) => { const p = parseWholeNumber(v); return p.ok ? p.value : 0; };

export const UPLOAD_NOTICE = 'Image uploaded successfully. Click Update to apply it.';
export const REMOVE_NOTICE = 'Image removed successfully. Click Update to apply it.';
/** SPEC.md section 9: the upload notice clears after 2 s. */
export const NOTICE_MS = 2000;

/**
 * The body of a save: the stock only when the administrator changed it from the value the form
 * loaded (with that value, so the server refuses it if orders changed the stock meanwhile: a stale
 * form never writes back stock that was sold); a supplier product's price, sale and stock never.
 */
export function updateBody(product: Product, values: ProductFormOutput, stockWas: number, variants: Pick<UpdateProductBody, 'options' | 'variants'> = {}): UpdateProductBody {
  const { countInStock, price, isOnSale, saleDiscount, ...rest } = values;
  if (product.cjData) return { _id: product._id, ...rest };
  // With options, the product's price and stock are its variants' (set per variant).
  if (variants.options?.length) return { _id: product._id, ...rest, isOnSale, saleDiscount, ...variants };
  const body: UpdateProductBody = { _id: product._id, ...rest, price, isOnSale, saleDiscount, ...variants };
  if (countInStock !== stockWas) {
    body.countInStock = countInStock;
    body.countInStockWas = stockWas;
  }
  return body;
}

/**
 * Every product field with the spec's validation; uploads change the form only, Update saves. A
 * supplier (CJ) product's price, sale and stock are shown read-only, with a link to its CJ page.
 * An own product may have options (issue 34): then each combination is a variant with its own
 * price, stock, SKU, image and switch, and the product's price and stock are shown as theirs.
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

  // A new product's slug follows its name until typed by hand (issue 36); clearing it follows
  // again. A published product keeps its slug when renamed, so links to it keep working.
  const isDraft = product.isDraft === true;
  const [isSlugFollowing, setIsSlugFollowing] = useState(() => isSlugFollowingName(product));
  const followName = (name: string) => {
    if (!isSlugFollowing) return;
    setValue('slug', slugFromName(name), { shouldDirty: true, shouldValidate: form.getFieldState('slug').invalid || form.formState.isSubmitted });
  };

  const images = useWatch({ control, name: 'images' });
  const image = useWatch({ control, name: 'image' });
  const hasErrors = Object.keys(errors).length > 0;

  // Options and variants: what was typed, checked like the server checks it once a save was tried.
  const hadOptions = (product.options?.length ?? 0) > 0;
  const [variants, setVariants] = useState<VariantsState>(() => fillDrafts(initialVariants(product), String(product.price)));
  const [variantErrors, setVariantErrors] = useState<Record<string, string>>({});
  const [isVariantsChecked, setIsVariantsChecked] = useState(false);
  const variantsRef = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => variantRows(variants, ''), [variants]);
  const totals = useMemo(() => variantTotals(rows), [rows]);
  const usesOptions = !isSupplierProduct && variants.options.length > 0;
  const [isOnSale, saleDiscount] = useWatch({ control, name: ['isOnSale', 'saleDiscount'] });

  // With options, the product's own price and stock are its variants': the form checks the sale
  // discount against the cheapest one, as the server does.
  useEffect(() => {
    if (!usesOptions) return;
    if (totals.lowest !== null) setValue('price', totals.lowest, { shouldValidate: form.formState.isSubmitted });
    setValue('countInStock', totals.stock);
  }, [usesOptions, totals.lowest, totals.stock, setValue, form.formState.isSubmitted]);

  // After a save was tried, every change is checked again (so a fixed error goes away as it is fixed).
  const changeVariants = (next: VariantsState) => {
    setVariants(next);
    if (isVariantsChecked) setVariantErrors(checkVariants(next, variantRows(next, ''), { isOnSale, saleDiscount: wholeOrZero(saleDiscount) }));
  };
  const changeOptions = (options: OptionDraft[]) => {
    const price = parseMoney(form.getValues('price'));
    changeVariants(fillDrafts({ ...variants, options }, price.ok && price.value > 0 ? String(price.value) : ''));
  };
  const changeVariant = (key: string, patch: Partial<VariantDraft>) =>
    changeVariants({ ...variants, drafts: { ...variants.drafts, [key]: { ...variants.drafts[key]!, ...patch } } });
  // The first field in error takes the focus once the errors are on screen.
  const [focusRequest, setFocusRequest] = useState(0);
  useEffect(() => {
    if (focusRequest) variantsRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusRequest]);
  const focusFirstVariantError = () => setFocusRequest((n) => n + 1);

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
    if (!isSupplierProduct) {
      const found = checkVariants(variants, rows, values);
      setIsVariantsChecked(true);
      setVariantErrors(found);
      if (Object.keys(found).length) {
        toast.error(Object.values(found)[0]!);
        focusFirstVariantError();
        return;
      }
    }
    try {
      await updateProduct.mutateAsync(updateBody(product, values, stockWas, isSupplierProduct ? {} : variantsBody(variants, rows, hadOptions)));
      toast.success(PRODUCT_FORM_MESSAGES.updated);
      onSaved();
    } catch (err) {
      // Orders changed the stock since the form loaded: the message says to what; the next save
      // is a change from that stock (an intentional override). A variant's too.
      if (err instanceof ApiError && err.code === STOCK_CHANGED_CODE) {
        try {
          const now = await getProductById(product._id);
          setStockWas(now.countInStock);
          const stockOf = new Map((now.productVariants ?? []).map((v) => [v._id, v.countInStock]));
          setVariants((state) => ({
            ...state,
            drafts: Object.fromEntries(Object.entries(state.drafts).map(([key, d]) => [key, d._id && stockOf.has(d._id) ? { ...d, stockWas: stockOf.get(d._id)! } : d])),
          }));
        } catch {
          // The next save is refused again and reads the stock again.
        }
      }
      // A refusal about options or variants goes beside them.
      const variantFieldErrors = err instanceof ApiError && err.fieldErrors
        ? Object.fromEntries(Object.entries(err.fieldErrors).filter(([key]) => key.startsWith('options') || key.startsWith('variants')))
        : {};
      if (Object.keys(variantFieldErrors).length) {
        setVariantErrors(variantFieldErrors);
        toast.error((err as ApiError).message);
        focusFirstVariantError();
        return;
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
      <ProductField form={form} name="name" onEdit={followName} />
      <ProductField form={form} name="slug" onEdit={(typed) => setIsSlugFollowing(isDraft && typed.trim() === '')}>
        {isSlugFollowing && (
          <div className="form-text" data-testid="slug-follows">
            Follows the name until you edit it.
          </div>
        )}
      </ProductField>
      {isSupplierProduct ? (
        <SupplierLockedFields product={product} />
      ) : usesOptions ? (
        <div className="mb-3">
          <span className="form-label d-block">Price</span>
          <span data-testid="variant-price">
            {totals.lowest === null
              ? '—'
              : totals.highest !== null && totals.highest > totals.lowest
                ? `${formatMoney(totals.lowest)} – ${formatMoney(totals.highest)}`
                : formatMoney(totals.lowest)}
          </span>{' '}
          <span className="small text-body-secondary">(set per variant below)</span>
          {errors.price?.message && <div className="invalid-feedback d-block">{errors.price.message}</div>}
        </div>
      ) : (
        <ProductField form={form} name="price" />
      )}
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
      <CategoryField form={form} categories={categories} />
      <ProductField form={form} name="brand" />
      {!isSupplierProduct &&
        (usesOptions ? (
          <div className="mb-3">
            <span className="form-label d-block">Count In Stock</span>
            <span data-testid="variant-stock">{totals.stock}</span> <span className="small text-body-secondary">(the variants on sale, set per variant below)</span>
          </div>
        ) : (
          <ProductField form={form} name="countInStock" />
        ))}
      <ProductField form={form} name="description" />
      {isSupplierProduct ? <SupplierFlagFields form={form} /> : <ProductFlagFields form={form} />}
      {!isSupplierProduct && (
        <div ref={variantsRef}>
          <ProductOptionsEditor options={variants.options} errors={variantErrors} onChange={changeOptions} />
          {usesOptions && (
            <section className="mb-3" aria-labelledby={`${uid}-variants`}>
              <h2 id={`${uid}-variants`} className="form-label fs-6 mb-1">
                Variants
              </h2>
              <p className="form-text mt-0 mb-2">
                {rows.length} {rows.length === 1 ? 'variant' : 'variants'}. Variants removed from the table are deleted when you click Update, or switched off
                when they have orders.
              </p>
              {variantErrors.variants && <div className="invalid-feedback d-block mb-2">{variantErrors.variants}</div>}
              <ProductVariantsTable rows={rows} images={[image, ...images]} errors={variantErrors} onChange={changeVariant} />
            </section>
          )}
        </div>
      )}
      <button type="submit" className="btn btn-primary" disabled={hasErrors || isSubmitting}>
        Update
      </button>
    </form>
  );
}
