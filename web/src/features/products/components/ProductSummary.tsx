import type { Product, SellableVariant } from '@shop/contracts';
import type { ReactNode } from 'react';
import { FromPrice, Price } from '../../../components/Price';
import { Rating } from '../../../components/Rating';

/**
 * Name, rating with review count, price ('(N% OFF)' on sale) and description; `children` go before
 * the description. The price is the chosen variant's; before a choice, 'From $X' when the variants
 * differ in price.
 */
export function ProductSummary({ product, variant = null, children }: { product: Product; variant?: SellableVariant | null; children?: ReactNode }) {
  return (
    <>
      <h1 className="h3">{product.name}</h1>
      <div className="mb-2">
        <Rating rating={product.rating} numReviews={product.numReviews} />
      </div>
      <div className="mb-2" data-testid="headline-price">
        <span className="me-1">Price:</span>
        {!variant && product.priceRange ? (
          <FromPrice min={product.priceRange.min} />
        ) : (
          <Price
            price={variant ? variant.price : product.price}
            finalPrice={variant ? variant.finalPrice : product.finalPrice}
            isOnSale={product.isOnSale}
            saleDiscount={product.saleDiscount}
            showDiscount
          />
        )}
      </div>
      {children}
      <h2 className="h6 mb-1">Description:</h2>
      <p style={{ whiteSpace: 'pre-line' }}>{product.description}</p>
    </>
  );
}
