import { PageTitle } from '../../../components/PageTitle';

export default function SignUpPage() {
  return <PageTitle title="Sign Up" />;
}
