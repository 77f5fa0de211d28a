import { PageTitle } from '../../../components/PageTitle';

export default function ChatDetailPage() {
  return <PageTitle title="Chat Details" />;
}
