import { ADMIN_PRODUCT_SORTS, ADMIN_STOCK_FILTERS, type AdminProductSort, type AdminStockFilter, type Product } from '@shop/contracts';
import { ADMIN_LOW_STOCK_MAX, PRODUCT_FORM_MESSAGES } from '@shop/contracts/constants';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from '../../../lib/toast';
import { paths } from '../../../lib/paths';
import { AdminPageHeader } from '../../../components/admin/AdminPageHeader';
import { AdminTable } from '../../../components/admin/AdminTable';
import { FilterSelect } from '../../../components/admin/FilterSelect';
import { ListSearchForm } from '../../../components/admin/ListSearchForm';
import { ListState } from '../../../components/admin/ListState';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { getErrorMessage } from '../../../lib/api-client';
import { formatMoney } from '../../../lib/format';
import { useListQueryParams } from '../../../lib/use-list-query-params';
import { CREATE_PRODUCT_QUESTION, useCreateAndEditProduct } from '../api/create-product';
import { useDeleteProduct } from '../api/delete-product';
import { useAdminProducts, type AdminProductFilters } from '../api/get-admin-products';
import type { ProductsReturnState } from '../lib/return-to';

const DEFAULTS = { search: '', category: 'all', stock: 'all', sort: 'newest' };
export const STOCK_LABELS: Record<AdminStockFilter, string> = {
  all: 'All stock',
  out: 'Out of stock',
  low: `Low stock (1-${ADMIN_LOW_STOCK_MAX})`,
};
export const SORT_LABELS: Record<AdminProductSort, string> = {
  newest: 'Newest',
  name: 'Name (A-Z)',
  price: 'Price (low to high)',
  stock: 'Stock (low to high)',
};

const oneOf = <T extends string>(list: readonly T[], value: string, fallback: T): T => ((list as readonly string[]).includes(value) ? (value as T) : fallback);

function StockCell({ count }: { count: number }) {
  return (
    <span className="text-nowrap">
      {count}
      {count === 0 ? (
        <span className="badge text-bg-danger ms-2">Out of stock</span>
      ) : count <= ADMIN_LOW_STOCK_MAX ? (
        <span className="badge text-bg-warning ms-2">Low stock</span>
      ) : null}
    </span>
  );
}

/**
 * /admin/products: search by name, category and stock filters, sort, thumbnails and stock. The
 * filters and page live in the address, and Edit hands that address to the edit page so Save and
 * Cancel come back here.
 */
export default function ProductListPage() {
  const { page, values, update, hrefFor, currentHref } = useListQueryParams(DEFAULTS);
  const filters: AdminProductFilters = {
    search: values.search,
    category: values.category,
    stock: oneOf(ADMIN_STOCK_FILTERS, values.stock, 'all'),
    sort: oneOf(ADMIN_PRODUCT_SORTS, values.sort, 'newest'),
  };
  const { data, isPending, error, isPlaceholderData } = useAdminProducts(page, filters);
  const { createAndEdit, isPending: isCreating } = useCreateAndEditProduct();
  const deleteProduct = useDeleteProduct();
  const [isCreateOpen, setCreateOpen] = useState(false);
  const [toDelete, setToDelete] = useState<Product | null>(null);
  // Kept apart from the product so the dialog keeps its text while it fades out.
  const [isDeleteOpen, setDeleteOpen] = useState(false);
  const returnState: ProductsReturnState = { returnTo: currentHref };
  const isFiltered = filters.search !== '' || filters.category !== 'all' || filters.stock !== 'all';
  const categories = data?.categories ?? [];

  const confirmCreate = async () => {
    await createAndEdit(currentHref);
    setCreateOpen(false);
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
      <AdminPageHeader title="Products">
        <button type="button" className="btn btn-primary" onClick={() => setCreateOpen(true)}>
          Create Product
        </button>
      </AdminPageHeader>
      <div className="row g-2 align-items-end my-2" aria-label="Filter products" role="group">
        <div className="col-12 col-lg-5">
          <ListSearchForm
            id="product-search"
            label="Search products by name"
            placeholder="Search by name"
            value={filters.search}
            onSearch={(search) => update({ search })}
            className="d-flex gap-2"
          />
        </div>
        <FilterSelect
          id="product-category"
          label="Category"
          className="col-12 col-sm-4 col-lg-3"
          value={filters.category}
          onChange={(category) => update({ category })}
          // A category in the address but no longer in use stays listed, so the select can show it.
          options={[['all', 'All categories'], ...[...new Set(filters.category === 'all' ? categories : [...categories, filters.category])].map((c) => [c, c] as const)]}
        />
        <FilterSelect
          id="product-stock"
          label="Stock"
          className="col-6 col-sm-4 col-lg-2"
          value={filters.stock}
          onChange={(stock) => update({ stock })}
          options={ADMIN_STOCK_FILTERS.map((s) => [s, STOCK_LABELS[s]] as const)}
        />
        <FilterSelect
          id="product-sort"
          label="Sort by"
          className="col-6 col-sm-4 col-lg-2"
          value={filters.sort}
          onChange={(sort) => update({ sort })}
          options={ADMIN_PRODUCT_SORTS.map((s) => [s, SORT_LABELS[s]] as const)}
        />
      </div>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2 small text-body-secondary">
        {data && <span aria-live="polite">{data.countProducts === 1 ? '1 product' : `${data.countProducts} products`}</span>}
        {isFiltered && (
          <button type="button" className="btn btn-link btn-sm p-0" onClick={() => update({ search: '', category: 'all', stock: 'all' })}>
            Clear filters
          </button>
        )}
      </div>
      <ListState
        isPending={isPending}
        error={error}
        isEmpty={!data || data.products.length === 0}
        empty="No products found"
        paging={data && { page, pages: data.pages, hrefFor, label: 'Product pages' }}
      >
        {() => (
          <AdminTable stacked columns={['ID', 'IMAGE', 'NAME', 'PRICE', 'CATEGORY', 'STOCK', 'BRAND', 'ACTIONS']} busy={isPlaceholderData}>
            {data!.products.map((product) => (
              <tr key={product._id}>
                <td data-label="ID" className="font-monospace small">{product._id}</td>
                <td data-label="IMAGE">
                  {product.image ? (
                    <img src={product.image} alt="" width={48} height={48} className="rounded border" style={{ objectFit: 'cover' }} loading="lazy" data-testid="product-thumbnail" />
                  ) : (
                    <span className="d-inline-block rounded border bg-body-tertiary" style={{ width: 48, height: 48 }} title="No image" />
                  )}
                </td>
                <td data-label="NAME" style={{ minWidth: '9rem' }}>
                  {product.name}
                  {product.isDraft && <span className="badge text-bg-secondary ms-2">Draft</span>}
                </td>
                <td data-label="PRICE">{formatMoney(product.price)}</td>
                <td data-label="CATEGORY">{product.category}</td>
                <td data-label="STOCK" data-testid="product-stock">
                  <StockCell count={product.countInStock} />
                </td>
                <td data-label="BRAND">{product.brand}</td>
                <td data-label="ACTIONS" className="text-nowrap">
                  <Link to={paths.admin.product(product._id)} state={returnState} className="btn btn-light btn-sm border me-2" aria-label={`Edit ${product.name}`}>
                    Edit
                  </Link>
                  <button
                    type="button"
                    className="btn btn-danger btn-sm"
                    aria-label={`Delete ${product.name}`}
                    onClick={() => {
                      setToDelete(product);
                      setDeleteOpen(true);
                    }}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
      </ListState>
      <ConfirmDialog
        show={isCreateOpen}
        title="Create Product"
        confirmLabel="Create"
        variant="primary"
        isPending={isCreating}
        onConfirm={() => void confirmCreate()}
        onCancel={() => setCreateOpen(false)}
      >
        {CREATE_PRODUCT_QUESTION}
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
