import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { AdminPageHeader } from '../../../components/admin/AdminPageHeader';
import { AdminTable } from '../../../components/admin/AdminTable';
import { ListState } from '../../../components/admin/ListState';
import { formatDateTime } from '../../../lib/format';
import { usePages } from '../api/pages';

/** Admin → Pages: the footer's information pages, each with View and Edit. */
export default function AdminPagesPage() {
  const pages = usePages();
  return (
    <>
      <AdminPageHeader title="Pages" />
      <p className="text-body-secondary small">The pages linked from the shop's footer. The FAQ's questions are also what the chat assistant answers from.</p>
      <ListState isPending={pages.isPending} error={pages.error} isEmpty={!pages.data?.pages.length} empty="No pages found">
        {() => (
          <AdminTable columns={['TITLE', 'ADDRESS', 'LAST CHANGED', 'ACTIONS']}>
            {pages.data!.pages.map((p) => (
              <tr key={p.slug}>
                <td>{p.title}</td>
                <td><Link to={paths.page(p.slug)}>{paths.page(p.slug)}</Link></td>
                <td>{formatDateTime(p.updatedAt)}</td>
                <td className="text-nowrap">
                  <Link to={paths.admin.page(p.slug)} className="btn btn-light btn-sm border" aria-label={`Edit ${p.title}`}>Edit</Link>
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
      </ListState>
    </>
  );
}
