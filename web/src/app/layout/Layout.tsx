import { Outlet, ScrollRestoration } from 'react-router';
import { ToastContainer } from 'react-toastify';
import 'react-toastify/dist/ReactToastify.css';
import { ChatLauncher } from '../../features/chat/components/ChatLauncher';
import { CartSync } from '../../features/cart/components/CartSync';
import { IdleTimer } from '../../features/auth/components/IdleTimer';
import { SessionSync } from '../../features/auth/components/SessionSync';
import { useStore } from '../store';
import { CookieNotice } from './CookieNotice';
import { Footer } from './Footer';
import { Header } from './Header';
import { useSingleToast } from './use-single-toast';

export function Layout() {
  const { state } = useStore();
  useSingleToast();
  return (
    <div className="d-flex flex-column min-vh-100">
      <a href="#main-content" className="visually-hidden-focusable shop-skip-link">
        Skip to main content
      </a>
      {/* A new page opens at the top; back/forward returns to where the shopper was. */}
      <ScrollRestoration />
      <ToastContainer position="bottom-center" />
      <CartSync />
      <SessionSync />
      {state.userInfo && <IdleTimer key={state.userInfo._id} />}
      <Header />
      <main id="main-content" className="flex-grow-1" tabIndex={-1}>
        <div className="container py-3">
          <Outlet />
        </div>
      </main>
      <Footer />
      <CookieNotice />
      <ChatLauncher />
    </div>
  );
}
