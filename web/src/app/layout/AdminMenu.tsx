import { Link } from 'react-router';
import { ADMIN_NAV } from './admin-nav';
import { HeaderMenu } from './HeaderMenu';

/** The storefront header's back-office menu, shown to admins only: the back office's areas (admin-nav.ts). */
export function AdminMenu() {
  return (
    <HeaderMenu label="Admin">
      {ADMIN_NAV.map((link) => (
        <Link key={link.to} to={link.to} className="dropdown-item">
          {link.label}
        </Link>
      ))}
    </HeaderMenu>
  );
}
