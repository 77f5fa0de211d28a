import { PageTitle } from '../../../components/PageTitle';

export default function ProductListPage() {
  return <PageTitle title="Products" />;
}
