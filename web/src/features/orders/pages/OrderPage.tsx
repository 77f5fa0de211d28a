import { PageTitle } from '../../../components/PageTitle';

export default function OrderPage() {
  return <PageTitle title="Order" />;
}
