import { useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { paths } from '../../../app/paths';
import { MessageBox } from '../../../components/MessageBox';
import { PageLoading } from '../../../components/PageLoading';
import { useDocumentTitle } from '../../../components/PageTitle';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { ProductBuyBox } from '../../products/components/ProductBuyBox';
import { ProductGallery } from '../../products/components/ProductGallery';
import { ProductReviewsSection } from '../../products/components/ProductReviewsSection';
import { ProductSummary } from '../../products/components/ProductSummary';
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

  const sold = product.variants.find((v) => v.vid === product.vid);

  return (
    <article>
      <div className="row g-4">
        <div className="col-md-6">
          <ProductGallery key={product._id} name={product.name} image={product.image} images={product.images} />
        </div>
        <div className="col-md-6 col-lg-3">
          <ProductSummary product={product}>
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
          </ProductSummary>
        </div>
        <div className="col-lg-3">
          <ProductBuyBox
            product={product}
            canBuy={product.countInStock > 0 && !product.isDiscontinued}
            note={product.isDiscontinued ? 'No longer available from our supplier.' : undefined}
          />
        </div>
      </div>
      <ProductReviewsSection
        product={product}
        productPath={paths.cjProduct(product.slug)}
        onReviewed={() => void queryClient.invalidateQueries({ queryKey: cjKeys.publicBySlug(slug) })}
      />
    </article>
  );
}
