import { PageTitle } from '../../../components/PageTitle';

export default function ProfilePage() {
  return <PageTitle title="User Profile" />;
}
