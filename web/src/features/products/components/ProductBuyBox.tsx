import type { Product } from '@shop/contracts';
import type { ReactNode } from 'react';
import { hasSaleDiscount } from '../../../components/Price';
import { formatMoney } from '../../../lib/format';
import { useAddToCart } from '../../cart/hooks/use-add-to-cart';

/**
 * The price and status panel of a product page (SPEC section 2): the price paid, 'In Stock' or
 * 'Unavailable', and 'Add to Cart' only when the product can be bought. `note` adds a line (why a
 * supplier product cannot be bought).
 */
export function ProductBuyBox({ product, canBuy = product.countInStock > 0, note }: { product: Product; canBuy?: boolean; note?: ReactNode }) {
  const { addToCart, isAdding } = useAddToCart();
  const onSale = hasSaleDiscount(product);
  return (
    <section className="card" aria-label="Price and availability">
      <ul className="list-group list-group-flush">
        <li className="list-group-item d-flex justify-content-between">
          <span>Price:</span>
          <span className="fw-bold">{formatMoney(onSale ? product.finalPrice : product.price)}</span>
        </li>
        <li className="list-group-item d-flex justify-content-between">
          <span>Status:</span>
          {canBuy ? <span className="badge text-bg-success">In Stock</span> : <span className="badge text-bg-danger">Unavailable</span>}
        </li>
        {note && <li className="list-group-item small text-body-secondary">{note}</li>}
        {canBuy && (
          <li className="list-group-item d-grid">
            <button type="button" className="btn btn-primary" onClick={() => void addToCart(product)} disabled={isAdding}>
              Add to Cart
            </button>
          </li>
        )}
      </ul>
    </section>
  );
}
