import { PageTitle } from '../../../components/PageTitle';

export default function OrderHistoryPage() {
  return <PageTitle title="Order History" />;
}
