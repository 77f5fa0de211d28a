import { PageTitle } from '../../../components/PageTitle';

export default function CjProductEditPage() {
  return <PageTitle title="Edit CJ Product" />;
}
