import { PageTitle } from '../../../components/PageTitle';

export default function ResetPasswordPage() {
  return <PageTitle title="Reset Password" />;
}
