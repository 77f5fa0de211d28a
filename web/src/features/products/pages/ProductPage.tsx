import { useParams } from 'react-router';
import { paths } from '../../../lib/paths';
import { MessageBox } from '../../../components/MessageBox';
import { PageLoading } from '../../../components/PageLoading';
import { useDocumentTitle } from '../../../components/PageTitle';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { useProduct } from '../api/get-product';
import { ProductBuyBox } from '../components/ProductBuyBox';
import { ProductGallery } from '../components/ProductGallery';
import { ProductReviewsSection } from '../components/ProductReviewsSection';
import { ProductSummary } from '../components/ProductSummary';

export default function ProductPage() {
  const { slug = '' } = useParams();
  const { data: product, isPending, error } = useProduct(slug);
  useDocumentTitle(product?.name ?? 'Product');

  if (isPending) return <PageLoading />;
  if (error) {
    return (
      // 400: a slug no product can have (a NUL character, too long) is not found either.
      <MessageBox variant="danger">{error instanceof ApiError && (error.status === 404 || error.status === 400) ? 'Product Not Found' : getErrorMessage(error)}</MessageBox>
    );
  }

  return (
    <article>
      <div className="row g-4">
        <div className="col-md-6">
          <ProductGallery key={product._id} name={product.name} image={product.image} images={product.images} />
        </div>
        <div className="col-md-6 col-lg-3">
          <ProductSummary product={product} />
        </div>
        <div className="col-lg-3">
          <ProductBuyBox product={product} />
        </div>
      </div>
      <ProductReviewsSection product={product} productPath={paths.product(product.slug)} />
    </article>
  );
}
