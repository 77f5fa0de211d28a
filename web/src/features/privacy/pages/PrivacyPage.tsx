import { PageTitle } from '../../../components/PageTitle';

export default function PrivacyPage() {
  return <PageTitle title="Privacy Policy" />;
}
