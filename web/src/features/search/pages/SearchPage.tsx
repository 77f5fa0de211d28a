import { PageTitle } from '../../../components/PageTitle';

export default function SearchPage() {
  return <PageTitle title="Search Products" />;
}
