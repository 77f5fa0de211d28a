import { PageTitle } from '../../../components/PageTitle';

export default function PaymentPage() {
  return <PageTitle title="Payment Method" />;
}
