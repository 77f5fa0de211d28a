import { PageTitle } from '../../../components/PageTitle';

export default function PlaceOrderPage() {
  return <PageTitle title="Preview Order" />;
}
