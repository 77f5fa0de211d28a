import { PageTitle } from '../../../components/PageTitle';

export default function OrderListPage() {
  return <PageTitle title="Orders" />;
}
