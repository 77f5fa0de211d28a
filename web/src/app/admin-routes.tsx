import type { ComponentType } from 'react';
import { lazyPage } from './lazy-page';
import { useRoutes, type RouteObject } from 'react-router';
import { AdminRoute } from '../features/auth/components/guards';
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

const adminPage = (Page: ComponentType) => <AdminRoute>{page(Page)}</AdminRoute>;

/** The routes under /admin/ (router.tsx sends /admin/* here), relative to it; an unknown one is the not-found page, as elsewhere. */
export const adminRoutes: RouteObject[] = [
  { path: 'dashboard', element: adminPage(DashboardPage) },
  { path: 'products', element: adminPage(ProductListPage) },
  { path: 'product/:id', element: adminPage(ProductEditPage) },
  { path: 'product', element: adminPage(ProductEditPage) },
  { path: 'orders', element: adminPage(OrderListPage) },
  { path: 'order/:id', element: adminPage(OrderPage) },
  { path: 'users', element: adminPage(UserListPage) },
  { path: 'user/:id', element: adminPage(UserEditPage) },
  { path: 'user', element: adminPage(UserEditPage) },
  { path: 'leads', element: adminPage(LeadsPage) },
  { path: 'chats', element: adminPage(ChatListPage) },
  { path: 'chat/:id', element: adminPage(ChatDetailPage) },
  { path: 'cj-products', element: adminPage(CjProductsPage) },
  { path: 'cj-product-edit/:pid', element: adminPage(CjProductEditPage) },
  { path: 'pages', element: adminPage(AdminPagesPage) },
  { path: 'page/:slug', element: adminPage(PageEditPage) },
  { path: '*', element: page(NotFoundPage) },
];

export default function AdminRoutes() {
  return useRoutes(adminRoutes);
}
