import { PageTitle } from '../../../components/PageTitle';

export default function ProductPage() {
  return <PageTitle title="Product" />;
}
