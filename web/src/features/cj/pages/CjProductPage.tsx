import { PageTitle } from '../../../components/PageTitle';

export default function CjProductPage() {
  return <PageTitle title="Product" />;
}
