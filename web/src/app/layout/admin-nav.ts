import { paths } from '../../lib/paths';

/** The icons the back office's sidebar draws (admin/AdminIcons.tsx); an entry without one gets a plain dot. */
export type AdminIconName = 'dashboard' | 'orders' | 'products' | 'supplier' | 'users' | 'leads' | 'chats' | 'pages' | 'discounts' | 'settings';

export interface AdminNavEntry {
  /** The area's list page. */
  to: string;
  label: string;
  icon?: AdminIconName;
  /** Other path prefixes that belong to the area (its own `to`, and `to` without the plural s, are already). */
  also?: readonly string[];
}

/**
 * The back office's areas, in order: the sidebar (and its phone menu) and the storefront header's
 * Admin menu are both built from this table, so a new area is one line here.
 */
export const ADMIN_NAV: readonly AdminNavEntry[] = [
  { to: paths.admin.dashboard, label: 'Dashboard', icon: 'dashboard' },
  { to: paths.admin.orders, label: 'Orders', icon: 'orders' },
  { to: paths.admin.products, label: 'Products', icon: 'products' },
  { to: paths.admin.cjProducts, label: 'Supplier catalogue', icon: 'supplier', also: ['/admin/cj-product-edit/'] },
  { to: paths.admin.discounts, label: 'Discounts', icon: 'discounts' },
  { to: paths.admin.users, label: 'Users', icon: 'users' },
  { to: paths.admin.leads, label: 'Leads', icon: 'leads' },
  { to: paths.admin.chats, label: 'Chats', icon: 'chats' },
  { to: paths.admin.pages, label: 'Pages', icon: 'pages' },
  { to: paths.admin.shipping, label: 'Shipping', icon: 'settings' },
];

/**
 * Whether `pathname` is in the area: its list (`/admin/products`, `/admin/products/...`), its items
 * (`/admin/product`, `/admin/product/{id}`: the path without the plural s) or one of its `also` prefixes.
 */
export function isInArea(entry: AdminNavEntry, pathname: string): boolean {
  const path = pathname.toLowerCase().replace(/\/+$/, '');
  const to = entry.to.toLowerCase();
  const single = to.endsWith('s') ? to.slice(0, -1) : to;
  return [to, single].some((p) => path === p || path.startsWith(`${p}/`)) || (entry.also ?? []).some((p) => path.startsWith(p.toLowerCase()));
}
