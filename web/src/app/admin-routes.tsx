import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { useRoutes, type RouteObject } from 'react-router';
import { AdminRoute } from './guards';
import { page } from './router';

const DashboardPage = lazy(() => import('../features/dashboard/pages/DashboardPage'));
const ProductListPage = lazy(() => import('../features/admin-products/pages/ProductListPage'));
const ProductEditPage = lazy(() => import('../features/admin-products/pages/ProductEditPage'));
const OrderListPage = lazy(() => import('../features/orders/pages/OrderListPage'));
const UserListPage = lazy(() => import('../features/users/pages/UserListPage'));
const UserEditPage = lazy(() => import('../features/users/pages/UserEditPage'));
const LeadsPage = lazy(() => import('../features/dashboard/pages/LeadsPage'));
const ChatListPage = lazy(() => import('../features/chat/pages/ChatListPage'));
const ChatDetailPage = lazy(() => import('../features/chat/pages/ChatDetailPage'));
const CjProductsPage = lazy(() => import('../features/cj/pages/CjProductsPage'));
const CjProductEditPage = lazy(() => import('../features/cj/pages/CjProductEditPage'));
const OrderPage = lazy(() => import('../features/orders/pages/OrderPage'));
const AdminPagesPage = lazy(() => import('../features/pages/pages/AdminPagesPage'));
const PageEditPage = lazy(() => import('../features/pages/pages/PageEditPage'));
const NotFoundPage = lazy(() => import('./NotFoundPage'));

const adminPage = (Page: LazyExoticComponent<ComponentType>) => <AdminRoute>{page(Page)}</AdminRoute>;

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
