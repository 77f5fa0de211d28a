import { PageTitle } from '../../../components/PageTitle';

export default function CjProductsPublicPage() {
  return <PageTitle title="CJ Product" />;
}
