import type { Product } from '@shop/contracts';
import { SUPPLIER_PRODUCT_FORM_MESSAGES } from '@shop/contracts';
import { useId } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import type { ProductFormApi } from '../../../components/product-form/ProductFields';
import { formatPrice } from '../../../lib/format';

export const SUPPLIER_LOCKED_HINT = SUPPLIER_PRODUCT_FORM_MESSAGES.locked;

/**
 * A supplier (CJ) product's price, sale and stock, read-only: checkout charges its main variant's
 * price and takes that variant's stock, so they are edited on the supplier product's admin page
 * (linked). The form never sends them for such a product.
 */
export function SupplierLockedFields({ product }: { product: Product }) {
  const uid = useId();
  const hintId = `${uid}-hint`;
  const readOnly = { readOnly: true, className: 'form-control-plaintext', 'aria-describedby': hintId } as const;
  return (
    <fieldset className="mb-3 border rounded p-3">
      <legend className="form-label fs-6 float-none w-auto px-1 mb-0">Price, sale and stock</legend>
      <div className="mb-2">
        <label className="form-label" htmlFor={`${uid}-price`}>
          Price
        </label>
        <input id={`${uid}-price`} type="text" value={`$${formatPrice(product.price)}`} {...readOnly} />
      </div>
      <div className="mb-2">
        <label className="form-label" htmlFor={`${uid}-stock`}>
          Count In Stock
        </label>
        <input id={`${uid}-stock`} type="text" value={String(product.countInStock)} {...readOnly} />
      </div>
      <div className="form-check mb-2">
        <input id={`${uid}-onsale`} type="checkbox" className="form-check-input" checked={product.isOnSale} disabled readOnly aria-describedby={hintId} />
        <label className="form-check-label" htmlFor={`${uid}-onsale`}>
          On Sale
        </label>
      </div>
      {product.isOnSale && (
        <div className="mb-2">
          <label className="form-label" htmlFor={`${uid}-discount`}>
            Sale Discount (%)
          </label>
          <input id={`${uid}-discount`} type="text" value={String(product.saleDiscount)} {...readOnly} />
        </div>
      )}
      <p id={hintId} className="form-text mb-0">
        {SUPPLIER_LOCKED_HINT}.{' '}
        <Link to={paths.admin.cjProductEdit(product.cjData?.pid ?? product._id)}>Edit price, sale and stock in CJ Products</Link>
      </p>
    </fieldset>
  );
}

/** Today's Deal and Gift: the flags of a supplier product the product form still saves. */
export function SupplierFlagFields({ form }: { form: ProductFormApi }) {
  const uid = useId();
  const flags = [
    { name: 'isTodaysDeal', label: "Today's Deal" },
    { name: 'isGift', label: 'Gift' },
  ] as const;
  return (
    <div className="mb-3">
      {flags.map((flag) => (
        <div key={flag.name} className="form-check">
          <input type="checkbox" className="form-check-input" id={`${uid}-${flag.name}`} {...form.register(flag.name)} />
          <label className="form-check-label" htmlFor={`${uid}-${flag.name}`}>
            {flag.label}
          </label>
        </div>
      ))}
    </div>
  );
}
