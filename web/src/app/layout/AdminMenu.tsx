import { Link } from 'react-router';
import { paths } from '../../lib/paths';
import { HeaderMenu } from './HeaderMenu';

export const ADMIN_LINKS = [
  { to: paths.admin.dashboard, label: 'Dashboard' },
  { to: paths.admin.products, label: 'Products' },
  { to: paths.admin.orders, label: 'Orders' },
  { to: paths.admin.users, label: 'Users' },
  { to: paths.admin.leads, label: 'Leads' },
  { to: paths.admin.chats, label: 'Chats' },
  { to: paths.admin.cjProducts, label: 'CJ Products' },
  { to: paths.admin.pages, label: 'Pages' },
] as const;

/** The back-office menu, shown to admins only. */
export function AdminMenu() {
  return (
    <HeaderMenu label="Admin">
      {ADMIN_LINKS.map((link) => (
        <Link key={link.to} to={link.to} className="dropdown-item">
          {link.label}
        </Link>
      ))}
    </HeaderMenu>
  );
}
