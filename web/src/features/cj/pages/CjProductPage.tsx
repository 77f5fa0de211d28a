import { useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { Link, useParams } from 'react-router';
import { paths } from '../../../app/paths';
import { useStore } from '../../../app/store';
import { MessageBox } from '../../../components/MessageBox';
import { PageLoading } from '../../../components/PageLoading';
import { useDocumentTitle } from '../../../components/PageTitle';
import { hasSaleDiscount, Price } from '../../../components/Price';
import { Rating } from '../../../components/Rating';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { formatMoney } from '../../../lib/format';
import { withRedirect } from '../../auth/lib/redirect';
import { useAddToCart } from '../../cart/hooks/use-add-to-cart';
import { ProductGallery } from '../../products/components/ProductGallery';
import { ReviewForm } from '../../products/components/ReviewForm';
import { ReviewList } from '../../products/components/ReviewList';
import { useCjProductBySlug } from '../api/get-cj-product-by-slug';
import { cjKeys } from '../api/keys';

/** /cj-product/{slug}: a saved supplier product, like the product page, with its variants shown. */
export default function CjProductPage() {
  const { slug = '' } = useParams();
  const { data: product, isPending, error } = useCjProductBySlug(slug);
  const { state } = useStore();
  const { addToCart, isAdding } = useAddToCart();
  const queryClient = useQueryClient();
  const reviewsRef = useRef<HTMLElement>(null);
  useDocumentTitle(product?.name ?? 'Product');

  if (isPending) return <PageLoading />;
  if (error) {
    return <MessageBox variant="danger">{error instanceof ApiError && error.status === 404 ? 'Product Not Found' : getErrorMessage(error)}</MessageBox>;
  }

  const canBuy = product.countInStock > 0 && !product.isDiscontinued;
  const onSale = hasSaleDiscount(product);
  const sold = product.variants.find((v) => v.vid === product.vid);
  const onReviewed = () => {
    void queryClient.invalidateQueries({ queryKey: cjKeys.publicBySlug(slug) });
    reviewsRef.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
  };

  return (
    <article>
      <div className="row g-4">
        <div className="col-md-6">
          <ProductGallery key={product._id} name={product.name} image={product.image} images={product.images} />
        </div>
        <div className="col-md-6 col-lg-3">
          <h1 className="h3">{product.name}</h1>
          <div className="mb-2">
            <Rating rating={product.rating} numReviews={product.numReviews} />
          </div>
          <div className="mb-2">
            <span className="me-1">Price:</span>
            <Price price={product.price} finalPrice={product.finalPrice} isOnSale={product.isOnSale} saleDiscount={product.saleDiscount} showDiscount />
          </div>
          {product.variants.length > 0 && (
            <section className="mb-3" aria-labelledby="variants-heading">
              <h2 id="variants-heading" className="h6 mb-1">
                Variants:
              </h2>
              <ul className="list-unstyled d-flex flex-wrap gap-2 mb-1">
                {product.variants.map((v) => (
                  <li
                    key={v.vid}
                    className={`border rounded p-1 text-center small ${v.vid === product.vid ? 'border-primary border-2' : ''}`}
                    style={{ width: '5.5rem' }}
                    aria-current={v.vid === product.vid ? 'true' : undefined}
                  >
                    {v.variantImage && <img src={v.variantImage} alt={`${product.name} ${v.variantKey}`} width={72} height={72} className="img-fluid rounded" loading="lazy" />}
                    <div className="text-truncate" title={v.variantNameEn}>
                      {v.variantKey || v.variantNameEn}
                    </div>
                  </li>
                ))}
              </ul>
              {sold && <p className="small text-body-secondary mb-0">This listing sells: {sold.variantKey || sold.variantNameEn}</p>}
            </section>
          )}
          <h2 className="h6 mb-1">Description:</h2>
          <p style={{ whiteSpace: 'pre-line' }}>{product.description}</p>
        </div>
        <div className="col-lg-3">
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
              {product.isDiscontinued && <li className="list-group-item small text-body-secondary">No longer available from our supplier.</li>}
              {canBuy && (
                <li className="list-group-item d-grid">
                  <button type="button" className="btn btn-primary" onClick={() => void addToCart(product)} disabled={isAdding}>
                    Add to Cart
                  </button>
                </li>
              )}
            </ul>
          </section>
        </div>
      </div>
      <section ref={reviewsRef} className="my-4" aria-labelledby="reviews-heading" style={{ scrollMarginTop: '1rem' }}>
        <h2 id="reviews-heading" className="h4">
          Reviews
        </h2>
        <ReviewList reviews={product.reviews ?? []} />
        <div className="my-3" style={{ maxWidth: '40rem' }}>
          {state.userInfo ? (
            <ReviewForm product={product} onSubmitted={onReviewed} />
          ) : (
            <MessageBox>
              Please{' '}
              <Link className="alert-link" to={withRedirect(paths.signin, paths.cjProduct(product.slug))}>
                Sign In
              </Link>{' '}
              to write a review
            </MessageBox>
          )}
        </div>
      </section>
    </article>
  );
}
