import type { CjPublicProduct } from '@shop/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { paths } from '../../../lib/paths';
import { MessageBox } from '../../../components/MessageBox';
import { PageLoading } from '../../../components/PageLoading';
import { useDocumentTitle } from '../../../components/PageTitle';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { ProductBuyBox, ProductGallery, ProductReviewsSection, ProductSummary, VariantPicker } from '../../products';
import { useCjProductBySlug } from '../api/get-cj-product-by-slug';
import { cjKeys } from '../api/keys';

/** /cj-product/{slug}: a saved supplier product, like the product page, with its variants shown. */
export default function CjProductPage() {
  const { slug = '' } = useParams();
  const { data: product, isPending, error } = useCjProductBySlug(slug);
  const queryClient = useQueryClient();
  useDocumentTitle(product?.name ?? 'Product');

  if (isPending) return <PageLoading />;
  if (error) {
    return <MessageBox variant="danger">{error instanceof ApiError && error.status === 404 ? 'Product Not Found' : getErrorMessage(error)}</MessageBox>;
  }

  return <CjProductView product={product} onReviewed={() => void queryClient.invalidateQueries({ queryKey: cjKeys.publicBySlug(slug) })} />;
}

/**
 * The product with its variants: a radio group (arrow keys move between the swatches, Space
 * chooses); price, stock and image follow the choice, and Add to Cart waits for a choice when
 * there is more than one variant on sale.
 */
function CjProductView({ product, onReviewed }: { product: CjPublicProduct; onReviewed: () => void }) {
  const variants = product.productVariants ?? [];
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
            {variants.length > 0 && <VariantPicker variants={variants} chosenId={chosenId} onChoose={setChosenId} />}
          </ProductSummary>
        </div>
        <div className="col-lg-3">
          <ProductBuyBox
            product={product}
            variant={chosen}
            needsChoice={needsChoice}
            canBuy={(needsChoice || stock > 0) && !product.isDiscontinued}
            note={product.isDiscontinued ? 'No longer available.' : undefined}
          />
        </div>
      </div>
      <ProductReviewsSection product={product} productPath={paths.cjProduct(product.slug)} onReviewed={onReviewed} />
    </article>
  );
}
