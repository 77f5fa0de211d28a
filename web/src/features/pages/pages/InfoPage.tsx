import { useParams } from 'react-router';
import { MessageBox } from '../../../components/MessageBox';
import { PageTitle } from '../../../components/PageTitle';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import NotFoundPage from '../../../components/NotFoundPage';
import { usePage } from '../api/pages';
import { Markdown } from '../components/Markdown';
import { TextSkeleton } from '../../../components/Skeleton';

/** /pages/:slug: FAQ, Shipping, Returns, Terms, About, Contact, as edited in Admin → Pages. */
export default function InfoPage() {
  const { slug = '' } = useParams();
  const page = usePage(slug);
  if (page.isPending) return <div className="shop-prose mx-auto my-3"><TextSkeleton lines={6} heading /></div>;
  if (page.error) {
    if (page.error instanceof ApiError && page.error.status === 404) return <NotFoundPage />;
    return <MessageBox variant="danger">{getErrorMessage(page.error)}</MessageBox>;
  }
  const { title, body, faq } = page.data;
  return (
    <article className="shop-prose mx-auto">
      <PageTitle title={title} />
      <Markdown>{body}</Markdown>
      {faq && faq.length > 0 && (
        <section aria-label="Questions and answers" className="mt-4">
          {faq.map((entry) => (
            <section key={entry.id} className="mb-4" aria-labelledby={`faq-${entry.id}`}>
              <h2 id={`faq-${entry.id}`} className="h5">{entry.question}</h2>
              <Markdown>{entry.answer}</Markdown>
            </section>
          ))}
        </section>
      )}
    </article>
  );
}
