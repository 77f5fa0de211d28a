import { Link, useLocation } from 'react-router';
import { paths } from '../../../lib/paths';
import { ADMIN_NAV, isInArea } from '../admin-nav';
import { AdminIcon } from './AdminIcons';

/**
 * The back office's areas as a vertical list (the sidebar, and the menu on a phone), the current one
 * marked (aria-current); Chats shows how many conversations have unread messages.
 */
export function AdminNav({ unreadChats, onNavigate }: { unreadChats: number; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  return (
    <ul className="nav flex-column gap-1 shop-admin-nav">
      {ADMIN_NAV.map((entry) => {
        const current = isInArea(entry, pathname);
        const unread = entry.to === paths.admin.chats ? unreadChats : 0;
        return (
          <li key={entry.to} className="nav-item">
            <Link
              to={entry.to}
              className="nav-link"
              aria-current={current ? 'page' : undefined}
              aria-label={unread > 0 ? `${entry.label}, ${unread} ${unread === 1 ? 'conversation' : 'conversations'} with unread messages` : undefined}
              onClick={onNavigate}
            >
              <AdminIcon name={entry.icon} />
              <span className="flex-grow-1">{entry.label}</span>
              {unread > 0 && (
                <span className="badge rounded-pill text-bg-danger" data-testid="nav-unread-chats" aria-hidden="true">
                  {unread}
                </span>
              )}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
