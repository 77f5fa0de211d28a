import { PageTitle } from '../../../components/PageTitle';

export default function HomePage() {
  return <PageTitle title="Smart Finds. Joyfully Delivered" />;
}
