import { PageTitle } from '../../../components/PageTitle';

export default function CjProductsPage() {
  return <PageTitle title="CJ Products Management" />;
}
