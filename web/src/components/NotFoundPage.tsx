import { Link } from 'react-router';
import { PageTitle } from './PageTitle';

export default function NotFoundPage() {
  return (
    <div className="text-center my-5">
      <PageTitle title="Page Not Found" />
      <p>The page you are looking for does not exist.</p>
      <Link to="/">Go to the home page</Link>
    </div>
  );
}
