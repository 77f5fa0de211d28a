import { PageTitle } from '../../../components/PageTitle';

export default function DashboardPage() {
  return <PageTitle title="Dashboard" />;
}
