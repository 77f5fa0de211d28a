import { DISCOUNT_MESSAGES, type Discount } from '@shop/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { AdminPageHeader } from '../../../components/admin/AdminPageHeader';
import { AdminTable } from '../../../components/admin/AdminTable';
import { ListSearchForm } from '../../../components/admin/ListSearchForm';
import { ListState } from '../../../components/admin/ListState';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { getErrorMessage } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { toast } from '../../../lib/toast';
import { useListQueryParams } from '../../../lib/use-list-query-params';
import { useDiscounts } from '../api/get-discounts';
import { useDeleteDiscount, useUpdateDiscount } from '../api/manage-discount';
import { bodyOf, describeConditions, describeDates, describeKind } from '../lib/describe-discount';

const DEFAULTS = { search: '' };

/** /admin/discounts: the discount codes, paged and searched by code; edit, enable or disable, delete. */
export default function DiscountListPage() {
  const { page, values, update, hrefFor } = useListQueryParams(DEFAULTS);
  const { search } = values;
  const { data, isPending, error, isPlaceholderData } = useDiscounts(page, search);
  const updateDiscount = useUpdateDiscount();
  const deleteDiscount = useDeleteDiscount();
  const [toDelete, setToDelete] = useState<Discount | null>(null);
  const [isDeleteOpen, setDeleteOpen] = useState(false);

  const toggle = async (d: Discount) => {
    try {
      await updateDiscount.mutateAsync({ id: d._id, body: { ...bodyOf(d), enabled: !d.enabled } });
      toast.success(d.enabled ? `${d.code} disabled` : `${d.code} enabled`);
    } catch (err) {
      toast.error(getErrorMessage(err));
    }
  };
  const confirmDelete = async () => {
    if (!toDelete) return;
    try {
      await deleteDiscount.mutateAsync(toDelete._id);
      toast.success(DISCOUNT_MESSAGES.deleted);
    } catch (err) {
      toast.error(getErrorMessage(err));
    } finally {
      setDeleteOpen(false);
    }
  };

  return (
    <>
      <AdminPageHeader title="Discounts">
        <Link to={paths.admin.newDiscount} className="btn btn-primary">Create Discount</Link>
      </AdminPageHeader>
      <ListSearchForm id="discount-search" label="Search discounts by code" placeholder="Search by code" value={search} onSearch={(text) => update({ search: text })} />
      <ListState
        isPending={isPending}
        error={error}
        isEmpty={!data || data.discounts.length === 0}
        empty={search ? 'No discounts found' : 'No discount codes yet: create one to run a promotion'}
        paging={data && { page, pages: data.pages, hrefFor, label: 'Discount pages' }}
      >
        {() => (
          <>
            <p className="text-body-secondary small mb-2">{data!.countDiscounts} discounts</p>
            <AdminTable stacked columns={['CODE', 'DISCOUNT', 'CONDITIONS', 'VALID', 'USED', 'STATUS', 'ACTIONS']} busy={isPlaceholderData}>
              {data!.discounts.map((d) => (
                <tr key={d._id}>
                  <td data-label="CODE" className="fw-semibold text-break">{d.code}</td>
                  <td data-label="DISCOUNT">{describeKind(d)}</td>
                  <td data-label="CONDITIONS">{describeConditions(d)}</td>
                  <td data-label="VALID" className="text-nowrap">{describeDates(d)}</td>
                  <td data-label="USED">{d.usageLimit === null ? d.timesUsed : `${d.timesUsed} / ${d.usageLimit}`}</td>
                  <td data-label="STATUS">
                    <span className={`badge ${d.enabled ? 'text-bg-success' : 'text-bg-secondary'}`}>{d.enabled ? 'Enabled' : 'Disabled'}</span>
                  </td>
                  <td data-label="ACTIONS" className="text-nowrap">
                    <Link to={paths.admin.discount(d._id)} className="btn btn-light btn-sm border me-2" aria-label={`Edit ${d.code}`}>Edit</Link>
                    <button type="button" className="btn btn-outline-secondary btn-sm me-2" aria-label={`${d.enabled ? 'Disable' : 'Enable'} ${d.code}`}
                      disabled={updateDiscount.isPending} onClick={() => void toggle(d)}>
                      {d.enabled ? 'Disable' : 'Enable'}
                    </button>
                    <button type="button" className="btn btn-danger btn-sm" aria-label={`Delete ${d.code}`} onClick={() => { setToDelete(d); setDeleteOpen(true); }}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </AdminTable>
          </>
        )}
      </ListState>
      <ConfirmDialog show={isDeleteOpen} title="Delete Discount" isPending={deleteDiscount.isPending} onConfirm={() => void confirmDelete()} onCancel={() => setDeleteOpen(false)}>
        Delete the code {toDelete?.code ?? ''}? Shoppers can no longer use it; orders placed with it keep their discount.
      </ConfirmDialog>
    </>
  );
}
