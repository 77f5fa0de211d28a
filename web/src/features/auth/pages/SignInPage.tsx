import { PageTitle } from '../../../components/PageTitle';

export default function SignInPage() {
  return <PageTitle title="Sign In" />;
}
