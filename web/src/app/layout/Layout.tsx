import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { CartSync } from '../../features/cart/components/CartSync';
import { SessionSync } from '../../features/auth/components/SessionSync';
import { lazyPage } from '../lazy-page';
import { PageErrorBoundary } from '../PageErrorBoundary';
import { Header } from './Header';
import { ScrollRestoration } from './ScrollRestoration';
import { useClientLinks } from './use-client-links';
import { isBackOfficePath } from '../../lib/paths';
import { useStore } from '../../lib/store';

// Toasts, idle timer, footer, cookie notice, chat button: one chunk, not part of the first load.
const ShellEnd = lazyPage(() => import('./ShellEnd'));

/** Loads the shell's lazy part (before hydration: the server rendered it). */
export const preloadLayout = () => ShellEnd.preload();

/**
 * The shell of every page: the storefront's header, page and footer, or for /admin/* the back office,
 * which draws its own frame (admin-routes → AdminLayout: sidebar, top bar, no search, categories,
 * newsletter, payment icons or chat button). Both keep the session and cart in step, the scroll
 * position, the skip link and the shell's end (toasts, session-timeout watcher, cookie notice), which
 * stays mounted when the shopper moves between the two.
 */
export function Layout() {
  // The session and cart are kept in step once the browser's stored state is read (after hydration).
  const { state } = useStore();
  const backOffice = isBackOfficePath(useLocation().pathname);
  // Product cards link with plain anchors (components/PlainLink): their clicks are followed here.
  useClientLinks();
  return (
    <div className={backOffice ? undefined : 'd-flex flex-column min-vh-100'}>
      <a href="#main-content" className="visually-hidden-focusable shop-skip-link">
        Skip to main content
      </a>
      {/* A new page opens at the top; back/forward returns to where the shopper was. */}
      <ScrollRestoration />
      {!state.pendingRestore && (
        <>
          <CartSync />
          <SessionSync />
        </>
      )}
      {!backOffice && <Header />}
      {backOffice ? (
        <PageErrorBoundary>
          <Outlet />
        </PageErrorBoundary>
      ) : (
        <main id="main-content" className="flex-grow-1" tabIndex={-1}>
          <div className="container py-3">
            <PageErrorBoundary>
              <Outlet />
            </PageErrorBoundary>
          </div>
        </main>
      )}
      <PageErrorBoundary fallback={null}>
        <Suspense fallback={null}>
          <ShellEnd backOffice={backOffice} />
        </Suspense>
      </PageErrorBoundary>
    </div>
  );
}
