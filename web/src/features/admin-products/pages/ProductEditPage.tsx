import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { TextSkeleton } from '../../../components/Skeleton';
import { MessageBox } from '../../../components/MessageBox';
import { PageTitle } from '../../../components/PageTitle';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { CREATE_PRODUCT_QUESTION, useCreateAndEditProduct } from '../api/create-product';
import { useProductById } from '../api/get-product-by-id';
import { ProductForm } from '../components/ProductForm';
import { productsReturnTo } from '../lib/return-to';

/**
 * /admin/product with no id: nothing is created by opening the page. The admin confirms first
 * (SPEC section 2: Create asks, then the server creates an empty product and its edit page opens).
 */
function NewProduct({ returnTo }: { returnTo: string }) {
  const { createAndEdit, isPending } = useCreateAndEditProduct();
  return (
    <div style={{ maxWidth: '48rem' }}>
      <PageTitle title="Create Product" />
      <div className="card">
        <div className="card-body">
          <p className="card-text">{CREATE_PRODUCT_QUESTION}</p>
          <p className="card-text small text-body-secondary">The new product stays a draft, hidden from the shop, until it is saved with valid values.</p>
          <div className="d-flex gap-2">
            <button type="button" className="btn btn-primary" disabled={isPending} onClick={() => void createAndEdit(returnTo)}>
              {isPending ? 'Creating...' : 'Create'}
            </button>
            <Link to={returnTo} className="btn btn-outline-secondary">
              Cancel
            </Link>
          </div>
        </div>
      </div>
    </div>
  );
}

function EditProduct({ id, returnTo }: { id: string; returnTo: string }) {
  const navigate = useNavigate();
  const { data: product, isPending, error } = useProductById(id);
  return (
    <div style={{ maxWidth: '48rem' }}>
      <Link to={returnTo} className="d-inline-block mt-3 small">
        &larr; Back to products
      </Link>
      <PageTitle title={`Edit Product ${id}`} className="h3 mb-3 mt-1 text-break" />
      {isPending ? (
        <TextSkeleton lines={8} heading />
      ) : error ? (
        <MessageBox variant="danger">
          {error instanceof ApiError && error.status === 404 ? 'Product Not Found' : getErrorMessage(error)}
        </MessageBox>
      ) : (
        <>
          {product.isDraft && (
            <div className="alert alert-info py-2" role="status">
              Draft: hidden from the shop until Update saves it with every required field.
            </div>
          )}
          <ProductForm key={product._id} product={product} onSaved={() => void navigate(returnTo)} />
        </>
      )}
    </div>
  );
}

export default function ProductEditPage() {
  const { id } = useParams();
  const returnTo = productsReturnTo(useLocation().state);
  return id ? <EditProduct id={id} returnTo={returnTo} /> : <NewProduct returnTo={returnTo} />;
}
