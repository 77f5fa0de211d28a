import { lazyPage } from './lazy-page';
import { useRoutes, type RouteObject } from 'react-router';
import { Redirect } from '../features/auth/components/guards';
import { paths } from '../lib/paths';
import { AdminLayout } from './layout/admin/AdminLayout';
import { page } from './page-element';

const DashboardPage = lazyPage(() => import('../features/dashboard/pages/DashboardPage'));
const ProductListPage = lazyPage(() => import('../features/admin-products/pages/ProductListPage'));
const ProductEditPage = lazyPage(() => import('../features/admin-products/pages/ProductEditPage'));
const OrderListPage = lazyPage(() => import('../features/orders/pages/OrderListPage'));
const UserListPage = lazyPage(() => import('../features/users/pages/UserListPage'));
const UserEditPage = lazyPage(() => import('../features/users/pages/UserEditPage'));
const LeadsPage = lazyPage(() => import('../features/dashboard/pages/LeadsPage'));
const ChatListPage = lazyPage(() => import('../features/chat/pages/ChatListPage'));
const ChatDetailPage = lazyPage(() => import('../features/chat/pages/ChatDetailPage'));
const CjProductsPage = lazyPage(() => import('../features/cj/pages/CjProductsPage'));
const CjProductEditPage = lazyPage(() => import('../features/cj/pages/CjProductEditPage'));
const OrderPage = lazyPage(() => import('../features/orders/pages/OrderPage'));
const NotFoundPage = lazyPage(() => import('../components/NotFoundPage'));
const AdminPagesPage = lazyPage(() => import('../features/pages/pages/AdminPagesPage'));
const PageEditPage = lazyPage(() => import('../features/pages/pages/PageEditPage'));
const DiscountListPage = lazyPage(() => import('../features/discounts/pages/DiscountListPage'));
const DiscountEditPage = lazyPage(() => import('../features/discounts/pages/DiscountEditPage'));
const ShippingSettingsPage = lazyPage(() => import('../features/admin-shipping/pages/ShippingSettingsPage'));

/**
 * The routes under /admin/ (router.tsx sends /admin/* here), relative to it, inside the back office's
 * own frame (AdminLayout, which also holds the admin guard for every page); /admin is the dashboard,
 * an unknown one the not-found page.
 */
const adminPages: RouteObject[] = [
  { index: true, element: <Redirect to={paths.admin.dashboard} replace /> },
  { path: 'dashboard', element: page(DashboardPage) },
  { path: 'products', element: page(ProductListPage) },
  { path: 'product/:id', element: page(ProductEditPage) },
  { path: 'product', element: page(ProductEditPage) },
  { path: 'orders', element: page(OrderListPage) },
  { path: 'order/:id', element: page(OrderPage) },
  { path: 'users', element: page(UserListPage) },
  { path: 'user/:id', element: page(UserEditPage) },
  { path: 'user', element: page(UserEditPage) },
  { path: 'leads', element: page(LeadsPage) },
  { path: 'chats', element: page(ChatListPage) },
  { path: 'chat/:id', element: page(ChatDetailPage) },
  { path: 'cj-products', element: page(CjProductsPage) },
  { path: 'cj-product-edit/:pid', element: page(CjProductEditPage) },
  { path: 'pages', element: page(AdminPagesPage) },
  { path: 'page/:slug', element: page(PageEditPage) },
  { path: 'discounts', element: page(DiscountListPage) },
  { path: 'discount/:id', element: page(DiscountEditPage) },
  { path: 'discount', element: page(DiscountEditPage) },
  { path: 'shipping', element: page(ShippingSettingsPage) },
  { path: '*', element: page(NotFoundPage) },
];

export const adminRoutes: RouteObject[] = [{ element: <AdminLayout />, children: adminPages }];

export default function AdminRoutes() {
  return useRoutes(adminRoutes);
}
