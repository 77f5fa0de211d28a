import { CHAT_TEXTS } from '@shop/contracts/chat-constants';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { AdminPageHeader } from '../../../components/admin/AdminPageHeader';
import { AdminTable } from '../../../components/admin/AdminTable';
import { ListSearchForm } from '../../../components/admin/ListSearchForm';
import { ListState } from '../../../components/admin/ListState';
import { EmailText } from '../../../components/EmailText';
import { WantsPersonBadge } from '../../../components/WantsPersonBadge';
import { formatDateTime } from '../../../lib/format';
import { useListQueryParams } from '../../../lib/use-list-query-params';
import { useAllHistory, useOnlineUsers } from '../api/chat-api';
import { AvailabilitySwitch } from '../components/AvailabilitySwitch';
import { messagePreview } from '../components/message-parts';
import { UnreadBadge } from '../components/UnreadBadge';

const senderLabel = (sender: string) => (sender === 'user' ? 'User' : sender === 'admin' ? CHAT_TEXTS.admin : CHAT_TEXTS.ai);

const DEFAULTS = { search: '' };

/**
 * /admin/chats: every customer and guest conversation, newest first, searchable and paged, with the
 * messages no administrator has read and who is online now; it follows new messages live (the
 * back office's socket, BackOfficeChat). Details opens the conversation, where the administrator answers.
 */
export default function ChatListPage() {
  const { page, values, update, hrefFor } = useListQueryParams(DEFAULTS);
  const { search } = values;
  const { data, isPending, error, isPlaceholderData } = useAllHistory(page, search);
  const online = new Set((useOnlineUsers().data?.users ?? []).map((u) => u.id));

  return (
    <div>
      <AdminPageHeader title="Chats">
        <AvailabilitySwitch />
      </AdminPageHeader>
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
          <AdminTable columns={['USER', 'EMAIL', 'LAST ACTIVITY', 'MESSAGES', 'LAST MESSAGE', 'ACTIONS']} busy={isPlaceholderData} caption="Conversations">
            {data!.chats.map((c) => {
              const last = c.messages.at(-1);
              const unread = c.unread ?? 0;
              return (
                <tr key={c._id} className={unread > 0 ? 'shop-unread-row' : undefined} data-testid="chat-row">
                  <td>
                    <span className="d-inline-flex flex-wrap align-items-center gap-1">
                      <span className={unread > 0 ? 'fw-bold' : undefined}>{c.userName}</span>
                      {c.isGuest && <span className="badge text-bg-secondary">Guest</span>}
                      {online.has(c.userId) && <span className="badge text-bg-success">online</span>}
                      <UnreadBadge count={unread} />
                      <WantsPersonBadge since={c.wantsPersonAt} />
                    </span>
                  </td>
                  <td><EmailText email={c.userEmail} /></td>
                  <td>{formatDateTime(c.lastActivity)}</td>
                  <td>{c.messageCount}</td>
                  <td className="shop-chat-last" title={last && messagePreview(last.content, last.sender === 'ai')}>{last && <span className="shop-line-clamp">{`${senderLabel(last.sender)}: ${messagePreview(last.content, last.sender === 'ai')}`}</span>}</td>
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
