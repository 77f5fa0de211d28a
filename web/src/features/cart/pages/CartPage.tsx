import { PageTitle } from '../../../components/PageTitle';

export default function CartPage() {
  return <PageTitle title="Shopping Cart" />;
}
