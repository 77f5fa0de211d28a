import type { Product } from '@shop/contracts';
import { PRODUCT_FORM_MESSAGES } from '@shop/contracts/constants';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'react-toastify';
import { paths } from '../../../app/paths';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { LoadingBox } from '../../../components/LoadingBox';
import { MessageBox } from '../../../components/MessageBox';
import { PageTitle } from '../../../components/PageTitle';
import { Paginator } from '../../../components/Paginator';
import { formatMoney } from '../../../lib/format';
import { getErrorMessage } from '../../../lib/api-client';
import { useCreateProduct } from '../api/create-product';
import { useDeleteProduct } from '../api/delete-product';
import { useAdminProducts } from '../api/get-admin-products';

export default function ProductListPage() {
  const [searchParams] = useSearchParams();
  const page = Math.max(1, Number(searchParams.get('page')) || 1);
  const navigate = useNavigate();
  const { data, isPending, error, isPlaceholderData } = useAdminProducts(page);
  const createProduct = useCreateProduct();
  const deleteProduct = useDeleteProduct();
  const [isCreateOpen, setCreateOpen] = useState(false);
  const [toDelete, setToDelete] = useState<Product | null>(null);
  // Kept apart from the product so the dialog keeps its text while it fades out.
  const [isDeleteOpen, setDeleteOpen] = useState(false);
  const askDelete = (product: Product) => {
    setToDelete(product);
    setDeleteOpen(true);
  };

  const confirmCreate = async () => {
    try {
      const product = await createProduct.mutateAsync();
      toast.success(PRODUCT_FORM_MESSAGES.created);
      setCreateOpen(false);
      navigate(paths.admin.product(product._id));
    } catch (err) {
      setCreateOpen(false);
      toast.error(getErrorMessage(err));
    }
  };

  const confirmDelete = async () => {
    if (!toDelete) return;
    try {
      await deleteProduct.mutateAsync(toDelete._id);
      toast.success(PRODUCT_FORM_MESSAGES.deleted);
    } catch (err) {
      toast.error(getErrorMessage(err));
    } finally {
      setDeleteOpen(false);
    }
  };

  return (
    <>
      <div className="d-flex flex-wrap justify-content-between align-items-center gap-2">
        <PageTitle title="Products" />
        <button type="button" className="btn btn-primary" onClick={() => setCreateOpen(true)}>
          Create Product
        </button>
      </div>
      {isPending ? (
        <LoadingBox />
      ) : error ? (
        <MessageBox variant="danger">{getErrorMessage(error)}</MessageBox>
      ) : data.products.length === 0 ? (
        <MessageBox>No products found</MessageBox>
      ) : (
        <>
          <div className="table-responsive">
            <table className="table table-hover align-middle" aria-busy={isPlaceholderData}>
              <thead>
                <tr>
                  <th scope="col">ID</th>
                  <th scope="col">NAME</th>
                  <th scope="col">PRICE</th>
                  <th scope="col">CATEGORY</th>
                  <th scope="col">BRAND</th>
                  <th scope="col">ACTIONS</th>
                </tr>
              </thead>
              <tbody>
                {data.products.map((product) => (
                  <tr key={product._id}>
                    <td className="font-monospace small">{product._id}</td>
                    <td>
                      {product.name}
                      {product.isDraft && <span className="badge text-bg-secondary ms-2">Draft</span>}
                    </td>
                    <td>{formatMoney(product.price)}</td>
                    <td>{product.category}</td>
                    <td>{product.brand}</td>
                    <td className="text-nowrap">
                      <Link to={paths.admin.product(product._id)} className="btn btn-light btn-sm border me-2" aria-label={`Edit ${product.name}`}>
                        Edit
                      </Link>
                      <button type="button" className="btn btn-danger btn-sm" aria-label={`Delete ${product.name}`} onClick={() => askDelete(product)}>
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Paginator page={page} pages={data.pages} hrefFor={paths.admin.productsPage} label="Product pages" />
        </>
      )}
      <ConfirmDialog
        show={isCreateOpen}
        title="Create Product"
        confirmLabel="Create"
        variant="primary"
        isPending={createProduct.isPending}
        onConfirm={() => void confirmCreate()}
        onCancel={() => setCreateOpen(false)}
      >
        Are you sure to create a new product?
      </ConfirmDialog>
      <ConfirmDialog
        show={isDeleteOpen}
        title="Delete Product"
        confirmLabel="Delete"
        isPending={deleteProduct.isPending}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleteOpen(false)}
      >
        Are you sure to delete {toDelete?.name ?? 'this product'}?
      </ConfirmDialog>
    </>
  );
}
