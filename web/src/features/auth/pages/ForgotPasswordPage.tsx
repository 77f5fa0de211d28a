import { PageTitle } from '../../../components/PageTitle';

export default function ForgotPasswordPage() {
  return <PageTitle title="Forgot Password" />;
}
