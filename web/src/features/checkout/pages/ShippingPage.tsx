import { PageTitle } from '../../../components/PageTitle';

export default function ShippingPage() {
  return <PageTitle title="Shipping Address" />;
}
