import type { Product, SellableVariant } from '@shop/contracts';
import type { ReactNode } from 'react';
import { hasSaleDiscount } from '../../../components/Price';
import { formatMoney } from '../../../lib/format';
import { useAddToCart } from '../../cart';

/**
 * The price and status panel of a product page (SPEC section 2): the price paid, 'In Stock' or
 * 'Unavailable', and 'Add to Cart' only when the product can be bought. `note` adds a line (why a
 * supplier product cannot be bought).
 */
export function ProductBuyBox({ product, canBuy = product.countInStock > 0, note, variant = null, needsChoice = false }: {
  product: Product; canBuy?: boolean; note?: ReactNode;
  /** The chosen variant (a supplier product's, or an own product's combination of options): its price is shown and its line added. */
  variant?: SellableVariant | null;
  /** A variant must be chosen first (Add to Cart stays disabled). */
  needsChoice?: boolean;
}) {
  const { addToCart, isAdding } = useAddToCart();
  const onSale = hasSaleDiscount(product);
  const shownPrice = variant ? (onSale ? variant.finalPrice : variant.price) : onSale ? product.finalPrice : product.price;
  // Variants that differ in price, none chosen yet: the lowest price paid.
  const isFrom = !variant && product.priceRange !== undefined;
  return (
    <section className="card" aria-label="Price and availability">
      <ul className="list-group list-group-flush">
        <li className="list-group-item d-flex justify-content-between">
          <span>Price:</span>
          <span className="fw-bold">{isFrom ? `From ${formatMoney(product.priceRange!.min)}` : formatMoney(shownPrice)}</span>
        </li>
        <li className="list-group-item d-flex justify-content-between">
          <span>Status:</span>
          {canBuy ? <span className="badge text-bg-success">In Stock</span> : <span className="badge text-bg-danger">Unavailable</span>}
        </li>
        {note && <li className="list-group-item small text-body-secondary">{note}</li>}
        {canBuy && (
          <li className="list-group-item d-grid">
            <button
              type="button"
              className="btn btn-primary"
              // Works from the first paint: a click before the app starts is kept and replayed (lib/early-clicks.ts).
              data-early="add-to-cart"
              onClick={() => void addToCart(product, variant)}
              disabled={isAdding || needsChoice}
            >
              Add to Cart
            </button>
            {needsChoice && <span className="small text-body-secondary mt-1">Choose a variant first.</span>}
          </li>
        )}
      </ul>
    </section>
  );
}
