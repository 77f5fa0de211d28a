import type { CjListItem, CjSavedItem } from '@shop/contracts';
import { CJ_MESSAGES, CJ_PAGE_SIZE } from '@shop/contracts/supplier-constants';
import { useEffect, useState, type FormEvent } from 'react';
import Dropdown from 'react-bootstrap/Dropdown';
import { Link, useSearchParams } from 'react-router';
import { toast } from '../../../lib/toast';
import { paths } from '../../../lib/paths';
import { pageFromParam } from '../../../lib/use-list-query-params';
import { AdminTable } from '../../../components/admin/AdminTable';
import { FilterSelect } from '../../../components/admin/FilterSelect';
import { ListState } from '../../../components/admin/ListState';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { PageTitle } from '../../../components/PageTitle';
import { getErrorMessage } from '../../../lib/api-client';
import { formatMoney } from '../../../lib/format';
import { useDeleteCjProduct } from '../api/delete-cj-product';
import { useCjCategories } from '../api/get-cj-categories';
import { useCjProducts } from '../api/get-cj-products';
import { useSavedCjProducts } from '../api/get-saved-cj-products';
import { useRefreshCjProduct } from '../api/refresh-cj-product';
import { Pager } from '../../../components/Pager';
import { SupplierOrdersTable } from '../components/SupplierOrdersTable';
import { SupplierSourceNotice } from '../components/SupplierSourceNotice';
import { PricingRuleForm } from '../components/PricingRuleForm';

type Tab = 'unsaved' | 'saved' | 'orders';
const TABS: Array<{ id: Tab; label: string }> = [
  { id: 'unsaved', label: 'Unsaved Products' },
  { id: 'saved', label: 'Saved Products' },
  { id: 'orders', label: 'Supplier Orders' },
];

/** A row of either tab, as the table shows it. */
interface Row {
  key: string;
  /** The id shown in the ID column: the supplier's pid, or our id for saved products. */
  id: string;
  image: string;
  name: string;
  price: number;
  /** Our product id when saved. */
  savedId: string | null;
  slug: string | null;
  /** Where Edit goes: the pid, or our 24-character id. */
  editId: string;
  saved?: CjSavedItem;
}

const fromListItem = (p: CjListItem): Row => ({
  key: p.pid, id: p.pid, image: p.bigImage, name: p.productNameEn, price: p.price, savedId: p.savedProductId, slug: null, editId: p.pid,
});
const fromSaved = (p: CjSavedItem): Row => ({
  key: p._id, id: p._id, image: p.image, name: p.name, price: p.price, savedId: p._id, slug: p.slug, editId: p._id, saved: p,
});

function MarginCell({ p }: { p: CjSavedItem }) {
  if (p.margin === null) return <span className="text-body-secondary">—</span>;
  return <span className={p.margin < 0 ? 'text-danger fw-semibold' : undefined}>{formatMoney(p.margin)}</span>;
}

function MarginPercentCell({ p }: { p: CjSavedItem }) {
  if (p.marginPercent === null) return <span className="text-body-secondary">—</span>;
  return <span className={p.marginPercent < 0 ? 'text-danger fw-semibold' : undefined}>{p.marginPercent}%</span>;
}

/**
 * CJ Products Management (SPEC section 2): 'Unsaved Products' (the supplier catalogue, paged from
 * page 1 with Previous/Next and 'Page X of Y') and 'Saved Products' (with cost and margin), a search
 * box and a category filter, an actions menu per row, and the supplier orders of paid orders.
 */
export default function CjProductsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = (TABS.find((t) => t.id === searchParams.get('tab'))?.id ?? 'unsaved') as Tab;
  const page = pageFromParam(searchParams.get('page'));
  const query = searchParams.get('query') ?? '';
  const category = searchParams.get('category') ?? '';
  const [text, setText] = useState(query);
  const [categoryInput, setCategoryInput] = useState(category);
  useEffect(() => {
    setText(query);
    setCategoryInput(category);
  }, [query, category]);

  const params = { page: String(page), limit: String(CJ_PAGE_SIZE), query, category };
  const unsaved = useCjProducts(params, tab === 'unsaved');
  const saved = useSavedCjProducts(params, tab === 'saved');
  const categories = useCjCategories();
  const deleteProduct = useDeleteCjProduct();
  const refresh = useRefreshCjProduct();
  const [toDelete, setToDelete] = useState<Row | null>(null);
  const [isDeleteOpen, setDeleteOpen] = useState(false);

  const go = (next: Partial<Record<'tab' | 'page' | 'query' | 'category', string>>) => {
    const merged = { tab, page: String(page), query, category, ...next };
    const out = new URLSearchParams();
    if (merged.tab !== 'unsaved') out.set('tab', merged.tab);
    if (merged.page !== '1') out.set('page', merged.page);
    if (merged.query) out.set('query', merged.query);
    if (merged.category) out.set('category', merged.category);
    setSearchParams(out);
  };

  const submitSearch = (e: FormEvent) => {
    e.preventDefault();
    go({ query: text.trim(), category: categoryInput, page: '1' });
  };

  const confirmDelete = async () => {
    if (!toDelete?.savedId) return;
    try {
      await deleteProduct.mutateAsync(toDelete.savedId);
      toast.success(CJ_MESSAGES.deleted);
    } catch (err) {
      console.error('Supplier product delete failed', err);
      toast.error(getErrorMessage(err));
    } finally {
      setDeleteOpen(false);
    }
  };

  const onRefresh = (row: Row) =>
    row.savedId &&
    refresh.mutate(row.savedId, {
      onSuccess: (res) => toast.success(res.message),
      onError: (err) => toast.error(getErrorMessage(err)),
    });

  const active = tab === 'unsaved' ? unsaved : saved;
  const rows: Row[] = tab === 'unsaved' ? (unsaved.data?.data.content ?? []).map(fromListItem) : (saved.data?.data.content ?? []).map(fromSaved);
  const totalPages = (tab === 'unsaved' ? unsaved.data?.data.totalPages : saved.data?.data.totalPages) ?? 0;
  const isSavedTab = tab === 'saved';

  return (
    <>
      <PageTitle title="CJ Products Management" />
      <SupplierSourceNotice />
      <PricingRuleForm />
      <ul className="nav nav-tabs mb-3" role="tablist">
        {TABS.map((t) => (
          <li key={t.id} className="nav-item" role="presentation">
            <button
              type="button"
              role="tab"
              id={`cj-tab-${t.id}`}
              aria-selected={tab === t.id}
              aria-controls="cj-tab-panel"
              className={`nav-link ${tab === t.id ? 'active' : ''}`}
              onClick={() => go({ tab: t.id, page: '1' })}
            >
              {t.label}
            </button>
          </li>
        ))}
      </ul>
      <div id="cj-tab-panel" role="tabpanel" aria-labelledby={`cj-tab-${tab}`}>
        {tab === 'orders' ? (
          <SupplierOrdersTable />
        ) : (
          <>
            <form className="row g-2 align-items-end mb-3" role="search" onSubmit={submitSearch}>
              <div className="col-12 col-md-6">
                <label htmlFor="cj-search" className="form-label small mb-1">
                  Search CJ products
                </label>
                <input id="cj-search" type="search" className="form-control" value={text} maxLength={200} onChange={(e) => setText(e.target.value)} placeholder="Name contains..." />
              </div>
              <FilterSelect
                id="cj-category"
                label="Category"
                className="col-8 col-md-4"
                value={categoryInput}
                onChange={setCategoryInput}
                options={[['', 'All categories'], ...(categories.data?.categories ?? []).map((c) => [c.categoryId, c.group ? `${c.categoryName} (${c.group})` : c.categoryName] as const)]}
              />
              <div className="col-4 col-md-2 d-grid">
                <button type="submit" className="btn btn-primary">
                  Search
                </button>
              </div>
            </form>
            <ListState isPending={active.isPending} error={active.error} isEmpty={rows.length === 0} empty={CJ_MESSAGES.noProducts}>
              {() => (
                <>
                  <AdminTable
                    columns={['ID', 'Image', 'Name', 'Price', isSavedTab && 'Cost', isSavedTab && 'Margin', isSavedTab && 'Margin %', 'Status', 'Actions']}
                    busy={active.isPlaceholderData || active.isFetching}
                  >
                    {rows.map((row) => (
                      <tr key={row.key} data-testid="cj-row">
                        <td>
                          <span className="font-monospace small d-inline-block text-truncate align-middle" style={{ maxWidth: 'min(22vw, 18rem)' }} title={row.id}>
                            {row.id}
                          </span>
                        </td>
                        <td>
                          {row.image ? (
                            <img src={row.image} alt="" width={56} height={56} className="rounded border" style={{ objectFit: 'cover' }} loading="lazy" />
                          ) : null}
                        </td>
                        <td style={{ minWidth: '9rem' }}>{row.name}</td>
                        <td>{formatMoney(row.price)}</td>
                        {isSavedTab && <td>{row.saved?.supplierCost === null || !row.saved ? '—' : formatMoney(row.saved.supplierCost)}</td>}
                        {isSavedTab && <td>{row.saved && <MarginCell p={row.saved} />}</td>}
                        {isSavedTab && <td>{row.saved && <MarginPercentCell p={row.saved} />}</td>}
                        <td>
                          {row.savedId ? <span className="badge text-bg-success">Saved</span> : <span className="badge text-bg-secondary">Not Saved</span>}
                          {row.saved?.supplierDiscontinuedAt && <span className="badge text-bg-danger ms-1">Discontinued</span>}
                        </td>
                        <td>
                          <Dropdown>
                            <Dropdown.Toggle variant="outline-secondary" size="sm" aria-label={`Actions for ${row.name}`}>
                              Actions
                            </Dropdown.Toggle>
                            <Dropdown.Menu popperConfig={{ strategy: 'fixed' }}>
                              <Dropdown.Item as={Link} to={paths.admin.cjProductEdit(row.editId)}>
                                Edit
                              </Dropdown.Item>
                              {row.savedId && row.slug && (
                                <Dropdown.Item as={Link} to={paths.cjProduct(row.slug)}>
                                  View
                                </Dropdown.Item>
                              )}
                              {row.savedId && isSavedTab && (
                                <Dropdown.Item as="button" onClick={() => onRefresh(row)} disabled={refresh.isPending}>
                                  Refresh from supplier
                                </Dropdown.Item>
                              )}
                              {row.savedId && (
                                <Dropdown.Item
                                  as="button"
                                  className="text-danger"
                                  onClick={() => {
                                    setToDelete(row);
                                    setDeleteOpen(true);
                                  }}
                                >
                                  Delete
                                </Dropdown.Item>
                              )}
                            </Dropdown.Menu>
                          </Dropdown>
                        </td>
                      </tr>
                    ))}
                  </AdminTable>
                  <Pager page={page} pages={totalPages} onPage={(n) => go({ page: String(n) })} label={isSavedTab ? 'Saved products pages' : 'Supplier products pages'} />
                </>
              )}
            </ListState>
          </>
        )}
      </div>
      <ConfirmDialog
        show={isDeleteOpen}
        title={CJ_MESSAGES.deleteTitle}
        confirmLabel="Delete"
        cancelLabel="Cancel"
        isPending={deleteProduct.isPending}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleteOpen(false)}
      >
        {CJ_MESSAGES.deleteConfirm}
      </ConfirmDialog>
    </>
  );
}
