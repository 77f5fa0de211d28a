import type { Product } from '@shop/contracts';
import { CARD_IMAGE_SIZES } from '@shop/contracts/images';
import { paths } from '../lib/paths';
import { responsiveImage } from '../lib/images';
import { PlainLink } from './PlainLink';
import { FromPrice, hasSaleDiscount, Price } from './Price';
import { Rating } from './Rating';

export type ProductCardProduct = Pick<
  Product,
  '_id' | 'name' | 'slug' | 'image' | 'price' | 'finalPrice' | 'rating' | 'numReviews' | 'countInStock' | 'isTodaysDeal' | 'isGift' | 'isOnSale' | 'saleDiscount'
> &
  Partial<Pick<Product, 'cjData' | 'priceRange'>>;

// Square box reserved before the image arrives, so the grid never shifts.
const imageStyle = { aspectRatio: '1 / 1', objectFit: 'contain', width: '100%', height: 'auto' } as const;

interface ProductCardProps {
  product: ProductCardProduct;
  /** Above the fold: load at once with high priority (the largest paint of the page). */
  isPriority?: boolean;
  headingLevel?: 'h2' | 'h3';
  /** The image's `sizes`: the card's rendered width in its grid (default: the home page grid). */
  sizes?: string;
}

/** A product in a grid: image, name, rating with review count, price (sale price struck through, or 'From $X' when its variants differ in price) and badges. */
export function ProductCard({ product, isPriority = false, headingLevel: Heading = 'h2', sizes = CARD_IMAGE_SIZES.home }: ProductCardProps) {
  // Saved supplier (CJ) products have their own page.
  const href = product.cjData ? paths.cjProduct(product.slug) : paths.product(product.slug);
  const isOutOfStock = product.countInStock <= 0;
  return (
    <div className="card h-100 product-card">
      <img
        src={product.image}
        {...responsiveImage(product.image, sizes)}
        alt={product.name}
        width={400}
        height={400}
        className="card-img-top"
        style={imageStyle}
        loading={isPriority ? 'eager' : 'lazy'}
        fetchPriority={isPriority ? 'high' : 'auto'}
        decoding={isPriority ? 'sync' : 'async'}
      />
      <div className="card-body d-flex flex-column gap-1 p-2">
        <div className="d-flex flex-wrap gap-1">
          {product.isTodaysDeal && <span className="badge text-bg-warning">Todays Deal</span>}
          {product.isGift && <span className="badge text-bg-info">Gift</span>}
          {hasSaleDiscount(product) && <span className="badge text-bg-danger">On Sale</span>}
          {isOutOfStock && <span className="badge text-bg-secondary">Out of Stock</span>}
        </div>
        <Heading className="h6 card-title mb-0 product-card-title">
          {/* One link per card: stretched over the whole card (image and price too), one stop for the keyboard; a plain anchor the layout follows (PlainLink). */}
          <PlainLink to={href} className="link-body-emphasis text-decoration-none stretched-link">
            {product.name}
          </PlainLink>
        </Heading>
        <Rating rating={product.rating} numReviews={product.numReviews} />
        {product.priceRange ? (
          // Variants that differ in price: the lowest price paid.
          <FromPrice className="mt-auto" min={product.priceRange.min} />
        ) : (
          <Price className="mt-auto" price={product.price} finalPrice={product.finalPrice} isOnSale={product.isOnSale} saleDiscount={product.saleDiscount} />
        )}
      </div>
    </div>
  );
}
