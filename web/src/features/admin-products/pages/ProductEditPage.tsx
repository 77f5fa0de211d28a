import { PageTitle } from '../../../components/PageTitle';

export default function ProductEditPage() {
  return <PageTitle title="Edit Product" />;
}
