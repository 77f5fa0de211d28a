import { PageTitle } from '../../../components/PageTitle';

export default function ChatListPage() {
  return <PageTitle title="Chat History" />;
}
