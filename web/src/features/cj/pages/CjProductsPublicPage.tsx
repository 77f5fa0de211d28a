import { useSearchParams } from 'react-router';
import { AdminRoute } from '../../auth';
import { CjProductEditor } from '../components/CjProductEditor';

/**
 * /cj-products?pid=...: the spec lists this supplier edit form outside the guarded routes. Only an
 * administrator sees and uses it; anyone else goes to /signin (and the server refuses every
 * supplier write from a non-administrator whatever this page does).
 */
export default function CjProductsPublicPage() {
  const [params] = useSearchParams();
  return (
    <AdminRoute>
      <CjProductEditor id={(params.get('pid') ?? '').trim()} />
    </AdminRoute>
  );
}
