import { useRef } from 'react';
import { Link, useParams } from 'react-router';
import { paths } from '../../../app/paths';
import { useStore } from '../../../app/store';
import { PageLoading } from '../../../components/PageLoading';
import { MessageBox } from '../../../components/MessageBox';
import { useDocumentTitle } from '../../../components/PageTitle';
import { hasSaleDiscount, Price } from '../../../components/Price';
import { formatMoney } from '../../../lib/format';
import { Rating } from '../../../components/Rating';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { useAddToCart } from '../../cart/hooks/use-add-to-cart';
import { withRedirect } from '../../auth/lib/redirect';
import { useMyReview } from '../api/get-my-review';
import { useProduct } from '../api/get-product';
import { ProductGallery } from '../components/ProductGallery';
import { ReviewForm } from '../components/ReviewForm';
import { ReviewList } from '../components/ReviewList';

export default function ProductPage() {
  const { slug = '' } = useParams();
  const { data: product, isPending, error } = useProduct(slug);
  const { state } = useStore();
  const { addToCart, isAdding } = useAddToCart();
  const reviewsRef = useRef<HTMLElement>(null);
  const myReview = useMyReview(product?._id ?? '', Boolean(state.userInfo && product));
  useDocumentTitle(product?.name ?? 'Product');

  if (isPending) return <PageLoading />;
  if (error) {
    return (
      // 400: a slug no product can have (a NUL character, too long) is not found either.
      <MessageBox variant="danger">{error instanceof ApiError && (error.status === 404 || error.status === 400) ? 'Product Not Found' : getErrorMessage(error)}</MessageBox>
    );
  }

  const hasStock = product.countInStock > 0;
  const onSale = hasSaleDiscount(product);
  const scrollToReviews = () => reviewsRef.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });

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
                {hasStock ? <span className="badge text-bg-success">In Stock</span> : <span className="badge text-bg-danger">Unavailable</span>}
              </li>
              {hasStock && (
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
            myReview.data?.review ? (
              <MessageBox variant="success">You reviewed this product</MessageBox>
            ) : myReview.isPending ? null : (
              <ReviewForm product={product} onSubmitted={scrollToReviews} />
            )
          ) : (
            <MessageBox>
              Please{' '}
              <Link className="alert-link" to={withRedirect(paths.signin, paths.product(product.slug))}>
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
