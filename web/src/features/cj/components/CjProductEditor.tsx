import { CJ_MESSAGES, CJ_SAVE_REDIRECT_MS } from '@shop/contracts/supplier-constants';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from '../../../lib/toast';
import { paths } from '../../../lib/paths';
import { LoadingBox } from '../../../components/LoadingBox';
import { MessageBox } from '../../../components/MessageBox';
import { PageTitle } from '../../../components/PageTitle';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { useCjProduct } from '../api/get-cj-product';
import { usePricingRule } from '../api/pricing';
import { useSavedCjProduct } from '../api/get-saved-cj-product';
import { useRefreshCjProduct } from '../api/refresh-cj-product';
import { fromSavedItem, fromSupplierProduct, isSavedProductId } from '../lib/form-source';
import { CjProductForm } from './CjProductForm';

function LoadError({ error }: { error: unknown }) {
  const missing = error instanceof ApiError && error.status === 404;
  return (
    <MessageBox variant="danger">
      {missing ? getErrorMessage(error) || 'Product Not Found' : getErrorMessage(error)} <Link to={paths.admin.cjProducts}>Back to CJ products</Link>
    </MessageBox>
  );
}

/**
 * 'Edit CJ Product {id}' (SPEC sections 2 and 4): a 24-character id is a saved product, loaded by its
 * id; anything else is a supplier product id, loaded from the supplier catalogue (with the saved
 * product's values when it is saved already).
 */
export function CjProductEditor({ id }: { id: string }) {
  const isSavedId = isSavedProductId(id);
  const saved = useSavedCjProduct(id, Boolean(id) && isSavedId);
  const supplier = useCjProduct(id, Boolean(id) && !isSavedId);
  const savedId = supplier.data?.savedProductId ?? '';
  const savedOfSupplier = useSavedCjProduct(savedId, Boolean(savedId));
  // A new import's prices come from the pricing rule (the default rule if it cannot be read).
  const pricing = usePricingRule(Boolean(id) && !isSavedId);
  const refresh = useRefreshCjProduct();
  const navigate = useNavigate();
  const [isSaved, setIsSaved] = useState(false);
  useEffect(() => {
    if (!isSaved) return;
    const timer = setTimeout(() => navigate(paths.admin.cjProducts), CJ_SAVE_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [isSaved, navigate]);

  const title = <PageTitle title={`Edit CJ Product ${id}`} className="h3 my-3 text-break" />;
  if (!id) {
    return (
      <>
        {title}
        <MessageBox variant="danger">{CJ_MESSAGES.pidMissing}</MessageBox>
      </>
    );
  }
  const query = isSavedId ? saved : supplier;
  const pending = query.isPending || (Boolean(savedId) && savedOfSupplier.isPending) || (!isSavedId && pricing.isPending);
  let body;
  if (pending) body = <LoadingBox />;
  else if (query.isError) body = <LoadError error={query.error} />;
  else {
    const source = isSavedId ? fromSavedItem(saved.data!) : fromSupplierProduct(supplier.data!, savedOfSupplier.data, pricing.data);
    const onRefresh = () =>
      source.savedId &&
      refresh.mutate(source.savedId, {
        onSuccess: (res) => toast.success(res.message),
        onError: (err) => toast.error(getErrorMessage(err)),
      });
    body = (
      <>
        {source.savedId && (
          <div className="d-flex flex-wrap gap-2 mb-3">
            <span className="badge text-bg-success align-self-center">Saved</span>
            <button type="button" className="btn btn-outline-secondary btn-sm" onClick={onRefresh} disabled={refresh.isPending}>
              Refresh from supplier
            </button>
          </div>
        )}
        {isSaved && (
          <div className="alert alert-success" role="status">
            {CJ_MESSAGES.saved}
          </div>
        )}
        <CjProductForm key={`${source.pid}-${refresh.data?.product.updatedAt ?? ''}`} source={source} onSaved={() => setIsSaved(true)} />
      </>
    );
  }
  return (
    <div style={{ maxWidth: '48rem' }}>
      {title}
      {body}
    </div>
  );
}
