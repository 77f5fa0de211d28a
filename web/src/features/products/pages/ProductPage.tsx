import type { Product } from '@shop/contracts';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
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
import { VariantPicker } from '../components/VariantPicker';

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

  return <ProductView key={product._id} product={product} />;
}

/**
 * The product; one with options (issue 34) shows a choice per option: the headline price, the
 * image, the stock badge and Add to Cart follow the chosen variant (Add to Cart waits for a
 * choice when more than one variant is on sale). A supplier product opened here (an order line's
 * link) moves to its own page.
 */
function ProductView({ product }: { product: Product }) {
  const navigate = useNavigate();
  const isSupplierProduct = Boolean(product.cjData);
  useEffect(() => {
    if (isSupplierProduct) void navigate(paths.cjProduct(product.slug), { replace: true });
  }, [isSupplierProduct, navigate, product.slug]);
  const hasOptions = !isSupplierProduct && (product.options?.length ?? 0) > 0;
  const variants = hasOptions ? (product.productVariants ?? []) : [];
  const [chosenId, setChosenId] = useState<string | null>(variants.length === 1 ? variants[0]!._id : null);
  const chosen = variants.find((v) => v._id === chosenId) ?? null;
  const needsChoice = variants.length > 1 && !chosen;
  const stock = chosen ? chosen.countInStock : product.countInStock;
  const image = chosen?.image || product.image;

  return (
    <article>
      <div className="row g-4">
        <div className="col-md-6">
          <ProductGallery key={`${product._id}:${image}`} name={product.name} image={image} images={product.images} />
        </div>
        <div className="col-md-6 col-lg-3">
          <ProductSummary product={product} variant={chosen}>
            {variants.length > 0 && <VariantPicker variants={variants} options={product.options} chosenId={chosenId} onChoose={setChosenId} />}
          </ProductSummary>
        </div>
        <div className="col-lg-3">
          {hasOptions ? (
            <ProductBuyBox product={product} variant={chosen} needsChoice={needsChoice} canBuy={stock > 0} />
          ) : (
            <ProductBuyBox product={product} />
          )}
        </div>
      </div>
      <ProductReviewsSection product={product} productPath={paths.product(product.slug)} />
    </article>
  );
}
