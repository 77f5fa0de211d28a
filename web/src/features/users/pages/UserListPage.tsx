import { PageTitle } from '../../../components/PageTitle';

export default function UserListPage() {
  return <PageTitle title="Users" />;
}
