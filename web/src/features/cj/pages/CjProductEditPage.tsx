import { useParams } from 'react-router';
import { CjProductEditor } from '../components/CjProductEditor';

/** /admin/cj-product-edit/{pid}. */
export default function CjProductEditPage() {
  const { pid = '' } = useParams();
  return <CjProductEditor id={pid} />;
}
