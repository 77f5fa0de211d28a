import type { User } from '@shop/contracts';
import { useEffect, useState } from 'react';
import Offcanvas from 'react-bootstrap/Offcanvas';
import { Link, Outlet, useLocation } from 'react-router';
import { AdminRoute } from '../../../features/auth/components/guards';
import { BackOfficeChat } from '../../../features/chat/components/BackOfficeChat';
import { useUnreadConversations } from '../../../features/chat/api/chat-api';
import { LoadingBox } from '../../../components/LoadingBox';
import { paths } from '../../../lib/paths';
import { useStore } from '../../../lib/store';
import { PageErrorBoundary } from '../../PageErrorBoundary';
import { BRAND } from '../brand';
import { MenuIcon } from '../icons';
import { ModeSwitch } from '../ModeSwitch';
import { UserMenu } from '../UserMenu';
import { StoreIcon } from './AdminIcons';
import { AdminNav } from './AdminNav';

function Brand({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <Link to={paths.admin.dashboard} className="shop-admin-brand" onClick={onNavigate}>
      <span className="shop-brand">{BRAND}</span>{' '}
      <span className="shop-admin-brand-sub">Back office</span>
    </Link>
  );
}

const ViewStoreLink = ({ className = '' }: { className?: string }) => (
  <Link to={paths.home} className={`d-inline-flex align-items-center gap-2 ${className}`}>
    <StoreIcon />
    <span>View store</span>
  </Link>
);

/**
 * The back office's frame around every /admin page, for administrators: the areas in a sidebar from
 * 992 px (a menu behind a button on narrower screens), a top bar with a link back to the store, the
 * light/dark switch and the administrator's menu (their name, User Profile, Sign Out), and the page in
 * `main` (its title and main action are the page's own: AdminPageHeader). No storefront search,
 * categories, footer or chat button: the chat is answered on the Chats pages, over the tab's one chat
 * socket (BackOfficeChat). The cookie notice, toasts and session-timeout watcher come from the shell
 * (Layout → ShellEnd).
 */
function BackOfficeFrame({ user }: { user: User }) {
  const [isMenuOpen, setIsMenuOpen] = useState(false);
  // The phone's menu (Bootstrap's offcanvas) is mounted when first opened.
  const [hasOpenedMenu, setHasOpenedMenu] = useState(false);
  const location = useLocation();
  const unreadChats = useUnreadConversations();
  useEffect(() => setIsMenuOpen(false), [location.key]);
  const closeMenu = () => setIsMenuOpen(false);

  return (
    <div className="shop-admin">
      <aside className="shop-admin-sidebar d-none d-lg-flex flex-column" aria-label="Back office">
        <Brand />
        <nav aria-label="Back office areas" className="flex-grow-1">
          <AdminNav unreadChats={unreadChats} />
        </nav>
      </aside>
      <div className="shop-admin-body">
        <header className="shop-admin-topbar">
          <button
            type="button"
            className="btn btn-link shop-admin-menu-button d-lg-none"
            aria-label="Open navigation"
            aria-expanded={isMenuOpen}
            aria-controls="admin-menu"
            onClick={() => {
              setHasOpenedMenu(true);
              setIsMenuOpen(true);
            }}
          >
            <MenuIcon size={22} />
            {unreadChats > 0 && <span className="shop-admin-menu-dot" aria-hidden="true" />}
          </button>
          <div className="d-lg-none">
            <Brand />
          </div>
          <div className="ms-auto d-flex align-items-center gap-2 gap-sm-3">
            <ViewStoreLink className="nav-link shop-admin-store-link" />
            <ModeSwitch />
            <UserMenu user={user} />
          </div>
        </header>
        <main id="main-content" className="shop-admin-main" tabIndex={-1}>
          <div className="container-fluid px-3 px-lg-4 pb-4">
            <PageErrorBoundary>
              <AdminRoute>
                <Outlet />
              </AdminRoute>
            </PageErrorBoundary>
          </div>
        </main>
      </div>
      {hasOpenedMenu && (
      <Offcanvas id="admin-menu" show={isMenuOpen} onHide={closeMenu} placement="start" aria-labelledby="admin-menu-title" className="shop-admin-drawer">
        <Offcanvas.Header closeButton closeLabel="Close menu">
          <Offcanvas.Title id="admin-menu-title" as="h2" className="h5">Back office</Offcanvas.Title>
        </Offcanvas.Header>
        <Offcanvas.Body className="d-flex flex-column gap-3">
          <nav aria-label="Back office areas">
            <AdminNav unreadChats={unreadChats} onNavigate={closeMenu} />
          </nav>
          <ViewStoreLink className="nav-link px-3" />
        </Offcanvas.Body>
      </Offcanvas>
      )}
      <BackOfficeChat />
    </div>
  );
}

/**
 * /admin/*: the back office's frame once the viewer is a signed-in administrator (also in the server's
 * page, which knows the viewer from the session cookie); until then the admin guard alone: a loading
 * box while the session is looked up, /signin for anyone else.
 */
export function AdminLayout() {
  const { state } = useStore();
  const user = state.userInfo;
  if (user?.isAdmin) return <BackOfficeFrame user={user} />;
  return (
    <main id="main-content" className="container py-3" tabIndex={-1}>
      {/* A session the guard finds (restored from the server) is an administrator's: the frame follows once the store has it. */}
      <AdminRoute>
        <LoadingBox />
      </AdminRoute>
    </main>
  );
}
