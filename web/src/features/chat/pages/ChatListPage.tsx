import { CHAT_TEXTS } from '@shop/contracts/chat-constants';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { AdminTable } from '../../../components/admin/AdminTable';
import { ListSearchForm } from '../../../components/admin/ListSearchForm';
import { ListState } from '../../../components/admin/ListState';
import { PageTitle } from '../../../components/PageTitle';
import { WantsPersonBadge } from '../../../components/WantsPersonBadge';
import { formatDateTime } from '../../../lib/format';
import { useListQueryParams } from '../../../lib/use-list-query-params';
import { useAllHistory } from '../api/chat-api';
import { messagePreview } from '../components/message-parts';

const senderLabel = (sender: string) => (sender === 'user' ? 'User' : sender === 'admin' ? CHAT_TEXTS.admin : CHAT_TEXTS.ai);

const DEFAULTS = { search: '' };

/** /admin/chats: every customer and guest conversation, newest first, searchable and paged. */
export default function ChatListPage() {
  const { page, values, update, hrefFor } = useListQueryParams(DEFAULTS);
  const { search } = values;
  const { data, isPending, error } = useAllHistory(page, search);

  return (
    <div>
      <PageTitle title="Chat History" />
      <ListSearchForm
        id="chat-history-search"
        label="Search by name or e-mail"
        placeholder="Search by name or e-mail"
        value={search}
        onSearch={(text) => update({ search: text })}
        className="d-flex gap-2 mb-3 shop-search-narrow"
        buttonAriaLabel="Search chats"
      />
      <ListState
        isPending={isPending}
        error={error}
        isEmpty={!data || data.chats.length === 0}
        empty="No chats found"
        paging={data && { page, pages: data.pages, hrefFor, label: 'Chat history pages' }}
      >
        {() => (
          <AdminTable columns={['USER', 'EMAIL', 'LAST ACTIVITY', 'MESSAGES', 'LAST MESSAGE', 'ACTIONS']}>
            {data!.chats.map((c) => {
              const last = c.messages.at(-1);
              return (
                <tr key={c._id}>
                  <td>{c.userName}{c.isGuest && <span className="badge bg-secondary ms-2">Guest</span>}<WantsPersonBadge since={c.wantsPersonAt} className="ms-2" /></td>
                  <td className="text-break">{c.userEmail}</td>
                  <td>{formatDateTime(c.lastActivity)}</td>
                  <td>{c.messageCount}</td>
                  <td className="text-truncate" style={{ maxWidth: 260 }}>{last ? `${senderLabel(last.sender)}: ${messagePreview(last.content, last.sender === 'ai')}` : ''}</td>
                  <td><Link className="btn btn-sm btn-outline-primary" to={paths.admin.chat(c._id)} aria-label={`Details of the chat with ${c.userName}`}>Details</Link></td>
                </tr>
              );
            })}
          </AdminTable>
        )}
      </ListState>
    </div>
  );
}
