import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { paths } from '../../lib/paths';
import { useStore } from '../../lib/store';
import { AdminMenu } from './AdminMenu';
import { BRAND, TAGLINE } from './brand';
import { CartIcon } from './icons';
import { ModeSwitch } from './ModeSwitch';
import { SearchBox } from './SearchBox';
import { SubHeader } from './SubHeader';
import { UserMenu } from './UserMenu';


/**
 * The header: brand and tagline, search, cart with its badge, light/dark switch, the user and admin
 * menus. Below Bootstrap's lg breakpoint (991 px and narrower) the menu collapses behind a toggler;
 * the search box stays visible. The DOM order is the visual order at every width (brand, search,
 * cart, menu), so the tab order follows what the shopper sees.
 */
export function Header() {
  const { state } = useStore();
  const user = state.userInfo;
  const cartCount = state.cart.cartItems.reduce((sum, item) => sum + item.quantity, 0);
  const [isMenuOpen, setIsMenuOpen] = useState(false);
  const location = useLocation();

  useEffect(() => {
    setIsMenuOpen(false);
  }, [location.key]);

  return (
    <header className="shop-header">
      <nav className="navbar navbar-expand-lg shop-navbar" data-bs-theme="dark" aria-label="Main">
        <div className="container-fluid gap-2 shop-navbar-row">
          <Link to={paths.home} className="navbar-brand d-flex flex-column lh-1 me-lg-3">
            <span className="shop-brand">{BRAND}</span>
            <small className="shop-tagline">{TAGLINE}</small>
          </Link>
          {/* Always visible, also on phones (not hidden behind the menu toggle). */}
          <SearchBox />
          <Link to={paths.cart} className="nav-link shop-cart-link d-flex align-items-center gap-1 ms-lg-auto">
            <CartIcon size={22} />
            <span className="shop-cart-label">Cart</span>
            {cartCount > 0 && (
              <span className="badge rounded-pill bg-danger" data-testid="cart-badge">
                {cartCount}
              </span>
            )}
          </Link>
          <button
            type="button"
            className="navbar-toggler"
            aria-controls="main-nav"
            aria-expanded={isMenuOpen}
            aria-label="Toggle navigation"
            onClick={() => setIsMenuOpen((open) => !open)}
          >
            <span className="navbar-toggler-icon" />
          </button>
          <div id="main-nav" className={`collapse navbar-collapse flex-lg-grow-0 gap-2 ${isMenuOpen ? 'show' : ''}`}>
            <div className="navbar-nav align-items-lg-center gap-lg-2">
              <ModeSwitch />
              {user ? (
                <>
                  <Link to={paths.orderHistory} className="nav-link">
                    Orders
                  </Link>
                  <UserMenu user={user} />
                  {user.isAdmin && <AdminMenu />}
                </>
              ) : state.sessionPending ? (
                // A session cookie came with this page, rendered for no one: who it is comes in a
                // moment (stored user or users/current). Its place is kept, with nothing to read yet.
                <span className="nav-link invisible" aria-hidden="true" data-testid="session-pending">
                  Sign In
                </span>
              ) : (
                <Link to={paths.signin} className="nav-link">
                  Sign In
                </Link>
              )}
            </div>
          </div>
        </div>
      </nav>
      <SubHeader />
    </header>
  );
}
