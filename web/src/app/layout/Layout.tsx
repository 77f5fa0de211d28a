import { Outlet } from 'react-router';
import { ToastContainer } from 'react-toastify';
import 'react-toastify/dist/ReactToastify.css';
import { CartSync } from '../../features/cart/components/CartSync';
import { Footer } from './Footer';
import { Header } from './Header';

export function Layout() {
  return (
    <div className="d-flex flex-column min-vh-100">
      <ToastContainer position="bottom-center" limit={1} />
      <CartSync />
      <Header />
      <main className="flex-grow-1">
        <div className="container py-3">
          <Outlet />
        </div>
      </main>
      <Footer />
    </div>
  );
}
