import { parseMoney, parseWholeNumber, type NumberParse } from '@shop/contracts/numbers';
import { CJ_MESSAGES } from '@shop/contracts/supplier-constants';
import { useId, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { CategoryField } from '../../../components/product-form/CategoryField';
import {
  AdditionalImageList, hasFieldMessage, ProductField, ProductFieldMessage, ProductFlagFields, useProductForm,
} from '../../../components/product-form/ProductFields';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { formatMoney, roundMoney } from '../../../lib/format';
import { showServerFieldErrors, type ProductFormOutput } from '../../../lib/product-form';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useCategories } from '../../products';
import { useSaveCjProduct } from '../api/save-cj-product';
import type { CjFormSource } from '../lib/form-source';
import { toVariantEdits, variantErrors, VariantsTable, type VariantEdit } from './VariantsTable';

const numberOrNaN = (parsed: NumberParse) => (parsed.ok ? parsed.value : Number.NaN);

/**
 * The supplier product edit form (SPEC section 2, "Edit CJ Product"): the product form's fields and
 * rules (shared with the admin product form), a variant picker, the supplier's images to choose
 * from, and 'Save CJ Product'. On success it calls `onSaved` (the page says 'Product saved
 * successfully!' and goes back to the list after 2 s).
 */
export function CjProductForm({ source, onSaved }: { source: CjFormSource; onSaved: () => void }) {
  const uid = useId();
  const save = useSaveCjProduct();
  const { data: categories = [] } = useCategories();
  const [belowCost, setBelowCost] = useState<{ message: string; values: ProductFormOutput } | null>(null);
  const [vid, setVid] = useState(source.vid);
  const [formError, setFormError] = useState<string | null>(null);
  const [isSaved, setIsSaved] = useState(false);
  const [variantEdits, setVariantEdits] = useState<VariantEdit[]>(() => toVariantEdits(source.variants));
  const [showVariantErrors, setShowVariantErrors] = useState(false);
  const form = useProductForm(source.initial);
  const {
    handleSubmit,
    control,
    setValue,
    setError,
    formState: { errors, isSubmitting },
  } = form;

  const [image, images, priceInput, isOnSale, saleDiscountInput, countInStockInput] = useWatch({
    control,
    name: ['image', 'images', 'price', 'isOnSale', 'saleDiscount', 'countInStock'],
  });
  // The inputs hold text: read with the server's parsers (NaN while not a valid number).
  const price = numberOrNaN(parseMoney(priceInput));
  const saleDiscount = numberOrNaN(parseWholeNumber(saleDiscountInput));
  const countInStock = numberOrNaN(parseWholeNumber(countInStockInput));
  const hasErrors = Object.keys(errors).length > 0;
  const chosen = source.variants.find((v) => v.vid === vid);
  const cost = chosen?.cost ?? null;
  const sellPrice = Number.isFinite(price) ? roundMoney(price * (isOnSale && saleDiscount > 0 ? (100 - saleDiscount) / 100 : 1)) : null;
  const margin = cost !== null && sellPrice !== null ? roundMoney(sellPrice - cost) : null;

  const submit = async (values: ProductFormOutput, confirmBelowCost = false) => {
    setFormError(null);
    if (!source.pid) return setFormError(CJ_MESSAGES.pidMissing);
    if (!vid) return setFormError(CJ_MESSAGES.vidMissing);
    // The other variants' price, stock and on/off (the listing's variant follows the form's fields).
    const others = variantEdits.filter((e) => e.vid !== vid);
    if (others.some((e) => { const x = variantErrors(e); return Boolean(x.price || x.countInStock); })) {
      setShowVariantErrors(true);
      return setFormError('Please correct the variants marked in red');
    }
    const variants = others.map((e) => ({ vid: e.vid, price: numberOrNaN(parseMoney(e.price)), countInStock: numberOrNaN(parseWholeNumber(e.countInStock)), enabled: e.enabled }));
    try {
      await save.mutateAsync({
        pid: source.pid, isSaved: true, vid, ...values, ...(variants.length ? { variants } : {}), ...(confirmBelowCost ? { confirmBelowCost: true } : {}),
      });
      setBelowCost(null);
      setIsSaved(true);
      onSaved();
    } catch (err) {
      // Selling below the supplier's cost is allowed, but only when the administrator says so.
      if (err instanceof ApiError && err.code === 'BELOW_SUPPLIER_COST' && !confirmBelowCost) {
        setBelowCost({ message: err.message, values });
        return;
      }
      setBelowCost(null);
      if (showServerFieldErrors(err, setError)) return;
      setFormError(err instanceof ApiError && err.status < 500 ? err.message : `Failed to save the product: ${getErrorMessage(err)}`);
    }
  };

  const otherImages = source.supplierImages.filter((src) => src !== image && !images.includes(src));

  return (
    <form onSubmit={handleSubmit((values) => submit(values))} noValidate aria-label="Supplier product">
      <ConfirmDialog
        show={belowCost !== null}
        title="Sell below the supplier's cost?"
        confirmLabel="Save anyway"
        variant="danger"
        isPending={save.isPending}
        onConfirm={() => belowCost && void submit(belowCost.values, true)}
        onCancel={() => setBelowCost(null)}
      >
        {belowCost?.message}. Every sale would lose money.
      </ConfirmDialog>
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
                  name={`${uid}-variant`}
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
      <ProductField form={form} name="name" />
      <ProductField form={form} name="slug" />
      <ProductField form={form} name="price">
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
      </ProductField>
      <ProductField
        form={form}
        name="image"
        label="Main Image"
        before={image ? <img src={image} alt="" width={64} height={64} className="rounded border" style={{ objectFit: 'cover' }} /> : null}
      />
      <fieldset className="mb-3" aria-describedby={hasFieldMessage(form, 'images') ? `${uid}-images-error` : undefined}>
        <legend className="form-label fs-6">Additional Images</legend>
        <AdditionalImageList images={images} onRemove={(src) => setValue('images', images.filter((x) => x !== src), { shouldValidate: true, shouldDirty: true })} />
        <ProductFieldMessage form={form} name="images" id={`${uid}-images-error`} />
        {otherImages.length > 0 && (
          <div className="d-flex flex-wrap gap-2 align-items-center">
            <span className="small text-body-secondary">Supplier images:</span>
            {otherImages.map((src) => (
              <span key={src} className="d-inline-flex flex-column align-items-center gap-1">
                <img src={src} alt="" width={56} height={56} className="rounded border" style={{ objectFit: 'cover' }} loading="lazy" />
                <span className="btn-group btn-group-sm">
                  <button type="button" className="btn btn-outline-secondary" aria-label={`Add image ${src}`} onClick={() => setValue('images', [...images, src], { shouldValidate: true, shouldDirty: true })}>
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
      <CategoryField
        form={form}
        categories={categories}
        hint={source.supplierCategory ? (
          <>
            The supplier's category: {source.supplierCategory}.
            {!source.initial.category && " None of the shop's categories is close: choose one, or New category… to add one."}
          </>
        ) : undefined}
      />
      <ProductField form={form} name="countInStock" />
      {source.variants.length > 1 && (
        <fieldset className="mb-3">
          <legend className="form-label fs-6 fw-semibold">Variants</legend>
          <VariantsTable
            variants={source.variants}
            edits={variantEdits}
            mainVid={vid}
            mainPrice={price}
            mainStock={countInStock}
            discountPercent={isOnSale ? saleDiscount : 0}
            showErrors={showVariantErrors}
            onChange={(v, patch) => setVariantEdits((all) => all.map((e) => (e.vid === v ? { ...e, ...patch } : e)))}
          />
        </fieldset>
      )}
      <ProductField form={form} name="brand" />
      <ProductField form={form} name="description" rows={5} />
      <ProductFlagFields form={form} />
      <button type="submit" className="btn btn-primary" disabled={hasErrors || isSubmitting || save.isPending || isSaved}>
        Save CJ Product
      </button>
    </form>
  );
}
