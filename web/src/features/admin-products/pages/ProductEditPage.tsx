import { PRODUCT_FORM_MESSAGES } from '@shop/contracts/constants';
import { useEffect, useRef } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'react-toastify';
import { paths } from '../../../app/paths';
import { LoadingBox } from '../../../components/LoadingBox';
import { MessageBox } from '../../../components/MessageBox';
import { PageTitle } from '../../../components/PageTitle';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { createProduct } from '../api/create-product';
import { useProductById } from '../api/get-product-by-id';
import { ProductForm } from '../components/ProductForm';

/** /admin/product with no id: create a draft (as Create Product does) and edit it. */
function NewProduct() {
  const navigate = useNavigate();
  const started = useRef(false);
  useEffect(() => {
    // Strict mode runs effects twice in development; one draft is enough.
    if (started.current) return;
    started.current = true;
    createProduct()
      .then((product) => {
        toast.success(PRODUCT_FORM_MESSAGES.created);
        navigate(paths.admin.product(product._id), { replace: true });
      })
      .catch((err: unknown) => {
        toast.error(getErrorMessage(err));
        navigate(paths.admin.products, { replace: true });
      });
  }, [navigate]);
  return <LoadingBox label="Creating product..." />;
}

function EditProduct({ id }: { id: string }) {
  const navigate = useNavigate();
  const { data: product, isPending, error } = useProductById(id);
  return (
    <div style={{ maxWidth: '48rem' }}>
      <PageTitle title={`Edit Product ${id}`} />
      {isPending ? (
        <LoadingBox />
      ) : error ? (
        <MessageBox variant="danger">
          {error instanceof ApiError && error.status === 404 ? 'Product Not Found' : getErrorMessage(error)}{' '}
          <Link to={paths.admin.products}>Back to products</Link>
        </MessageBox>
      ) : (
        <ProductForm key={product._id} product={product} onSaved={() => navigate(paths.admin.products)} />
      )}
    </div>
  );
}

export default function ProductEditPage() {
  const { id } = useParams();
  return id ? <EditProduct id={id} /> : <NewProduct />;
}
