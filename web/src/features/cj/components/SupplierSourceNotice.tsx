import { useSupplierStatus } from '../api/get-supplier-status';

/** Says which supplier catalogue is in use: the CJ account, or the bundled offline one. */
export function SupplierSourceNotice() {
  const { data } = useSupplierStatus();
  if (!data) return null;
  return (
    <div className={`alert ${data.source === 'cj' ? 'alert-success' : 'alert-warning'} py-2`} role="status" data-testid="supplier-source">
      {data.notice}
    </div>
  );
}
