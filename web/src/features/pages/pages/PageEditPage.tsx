import { pageUpdateBodySchema, PAGE_BODY_MAX, PAGE_TITLE_MAX, PAGE_UPDATED, type FaqEntryInput } from '@shop/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { toast } from '../../../lib/toast';
import { paths } from '../../../lib/paths';
import { AdminPageHeader } from '../../../components/admin/AdminPageHeader';
import { MessageBox } from '../../../components/MessageBox';
import { TextSkeleton } from '../../../components/Skeleton';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { usePageSource, useUpdatePage } from '../api/pages';
import { Markdown } from '../components/Markdown';

interface FaqRow { question: string; answer: string; keywords: string }

const toRows = (entries: FaqEntryInput[] = []): FaqRow[] => entries.map((e) => ({ question: e.question, answer: e.answer, keywords: e.keywords.join(', ') }));
const fromRows = (rows: FaqRow[]): FaqEntryInput[] =>
  rows.map((r) => ({ question: r.question, answer: r.answer, keywords: r.keywords.split(',').map((k) => k.trim()).filter(Boolean) }));

/** Admin → Pages → Edit: title and Markdown (with a preview); on the FAQ page also its questions. */
export default function PageEditPage() {
  const { slug = '' } = useParams();
  const page = usePageSource(slug);
  const update = useUpdatePage(slug);
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [faq, setFaq] = useState<FaqRow[]>([]);
  const [preview, setPreview] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!page.data) return;
    setTitle(page.data.title);
    setBody(page.data.body);
    setFaq(toRows(page.data.faq));
  }, [page.data]);

  const isFaq = slug === 'faq';
  const setRow = (i: number, patch: Partial<FaqRow>) => setFaq((rows) => rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const move = (i: number, by: number) =>
    setFaq((rows) => {
      const next = [...rows];
      const [row] = next.splice(i, 1);
      next.splice(i + by, 0, row!);
      return next;
    });

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = pageUpdateBodySchema.safeParse({ title, body, ...(isFaq ? { faq: fromRows(faq) } : {}) });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const where = issue.path[0] === 'faq' && typeof issue.path[1] === 'number' ? `Question ${issue.path[1] + 1}: ` : '';
      setError(`${where}${issue.message}`);
      return;
    }
    setError(null);
    try {
      await update.mutateAsync(parsed.data);
      toast.success(PAGE_UPDATED);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : getErrorMessage(err));
    }
  };

  if (page.isPending) return <TextSkeleton lines={8} heading />;
  if (page.error) return <MessageBox variant="danger">{getErrorMessage(page.error)}</MessageBox>;

  return (
    <div className="mx-auto" style={{ maxWidth: 800 }}>
      <AdminPageHeader title={`Edit Page: ${page.data.title}`}>
        <Link to={paths.page(slug)} className="btn btn-outline-secondary btn-sm">View</Link>
      </AdminPageHeader>
      {error && <MessageBox variant="danger">{error}</MessageBox>}
      <form noValidate onSubmit={(e) => void onSubmit(e)}>
        <div className="mb-3">
          <label htmlFor="page-title" className="form-label">Title</label>
          <input id="page-title" className="form-control" value={title} maxLength={PAGE_TITLE_MAX} required onChange={(e) => setTitle(e.target.value)} />
        </div>
        <div className="mb-3">
          <div className="d-flex justify-content-between align-items-end">
            <label htmlFor="page-body" className="form-label">Content (Markdown)</label>
            <button type="button" className="btn btn-link btn-sm" aria-pressed={preview} onClick={() => setPreview(!preview)}>
              {preview ? 'Edit' : 'Preview'}
            </button>
          </div>
          {preview ? (
            <div className="border rounded p-3 shop-prose" data-testid="page-preview"><Markdown>{body}</Markdown></div>
          ) : (
            <textarea id="page-body" className="form-control font-monospace" rows={14} value={body} maxLength={PAGE_BODY_MAX}
              aria-describedby="page-body-help" onChange={(e) => setBody(e.target.value)} />
          )}
          <div id="page-body-help" className="form-text">
            Headings (##), lists (-), **bold**, *italic* and [links](/pages/contact). HTML is not shown. Shipping placeholders, filled from{' '}
            <Link to={paths.admin.shipping}>Shipping settings</Link> when the page is shown: <code>{'{{shipping.summary}}'}</code>,{' '}
            <code>{'{{shipping.flatRate}}'}</code>, <code>{'{{shipping.freeOver}}'}</code>, <code>{'{{shipping.countries}}'}</code>,{' '}
            <code>{'{{shipping.standard}}'}</code>, <code>{'{{shipping.days}}'}</code> (FAQ answers too).
          </div>
        </div>
        {isFaq && (
          <fieldset className="mb-3">
            <legend className="h5">Questions</legend>
            <p className="form-text mt-0">The chat assistant answers with a question's answer when a message contains one of its keywords.</p>
            {faq.map((row, i) => (
              <div key={i} className="border rounded p-2 mb-2" role="group" aria-label={`Question ${i + 1}`}>
                <div className="mb-2">
                  <label htmlFor={`faq-q-${i}`} className="form-label small">Question {i + 1}</label>
                  <input id={`faq-q-${i}`} className="form-control form-control-sm" value={row.question} onChange={(e) => setRow(i, { question: e.target.value })} />
                </div>
                <div className="mb-2">
                  <label htmlFor={`faq-a-${i}`} className="form-label small">Answer</label>
                  <textarea id={`faq-a-${i}`} className="form-control form-control-sm" rows={3} value={row.answer} onChange={(e) => setRow(i, { answer: e.target.value })} />
                </div>
                <div className="mb-2">
                  <label htmlFor={`faq-k-${i}`} className="form-label small">Keywords (comma-separated)</label>
                  <input id={`faq-k-${i}`} className="form-control form-control-sm" value={row.keywords} onChange={(e) => setRow(i, { keywords: e.target.value })} />
                </div>
                <div className="d-flex flex-wrap gap-2">
                  <button type="button" className="btn btn-outline-secondary btn-sm" disabled={i === 0} onClick={() => move(i, -1)} aria-label={`Move question ${i + 1} up`}>Up</button>
                  <button type="button" className="btn btn-outline-secondary btn-sm" disabled={i === faq.length - 1} onClick={() => move(i, 1)} aria-label={`Move question ${i + 1} down`}>Down</button>
                  <button type="button" className="btn btn-outline-danger btn-sm" onClick={() => setFaq((rows) => rows.filter((_, j) => j !== i))} aria-label={`Remove question ${i + 1}`}>Remove</button>
                </div>
              </div>
            ))}
            <button type="button" className="btn btn-outline-primary btn-sm" onClick={() => setFaq((rows) => [...rows, { question: '', answer: '', keywords: '' }])}>Add Question</button>
          </fieldset>
        )}
        <div className="d-flex gap-2">
          <button type="submit" className="btn btn-primary" disabled={update.isPending}>Update</button>
          <Link to={paths.admin.pages} className="btn btn-outline-secondary">Back</Link>
        </div>
      </form>
    </div>
  );
}
