import { PageTitle } from '../../../components/PageTitle';

export default function UserEditPage() {
  return <PageTitle title="Edit User" />;
}
