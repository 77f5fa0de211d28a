import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { PageLoading } from '../components/PageLoading';
import HomePage from '../features/products/pages/HomePage';
import { AdminRoute, GuestOnlyRoute, ProtectedRoute } from './guards';
import { Layout } from './layout/Layout';

const page = (Page: LazyExoticComponent<ComponentType>) => (
  <Suspense fallback={<PageLoading />}>
    <Page />
  </Suspense>
);

// Storefront pages load on demand; admin pages live in their own chunks so shoppers never download them.
const ProductPage = lazy(() => import('../features/products/pages/ProductPage'));
const CjProductPage = lazy(() => import('../features/cj/pages/CjProductPage'));
const CjProductsPublicPage = lazy(() => import('../features/cj/pages/CjProductsPublicPage'));
const CartPage = lazy(() => import('../features/cart/pages/CartPage'));
const SearchPage = lazy(() => import('../features/search/pages/SearchPage'));
const SignInPage = lazy(() => import('../features/auth/pages/SignInPage'));
const SignUpPage = lazy(() => import('../features/auth/pages/SignUpPage'));
const ForgotPasswordPage = lazy(() => import('../features/auth/pages/ForgotPasswordPage'));
const ResetPasswordPage = lazy(() => import('../features/auth/pages/ResetPasswordPage'));
const ConfirmSignUpPage = lazy(() => import('../features/auth/pages/ConfirmSignUpPage'));
const PrivacyPage = lazy(() => import('../features/privacy/pages/PrivacyPage'));
const ShippingPage = lazy(() => import('../features/checkout/pages/ShippingPage'));
const PaymentPage = lazy(() => import('../features/checkout/pages/PaymentPage'));
const PlaceOrderPage = lazy(() => import('../features/checkout/pages/PlaceOrderPage'));
const OrderPage = lazy(() => import('../features/orders/pages/OrderPage'));
const OrderHistoryPage = lazy(() => import('../features/orders/pages/OrderHistoryPage'));
const ProfilePage = lazy(() => import('../features/users/pages/ProfilePage'));
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
const UnsubscribePage = lazy(() => import('../features/newsletter/pages/UnsubscribePage'));
const CjProductEditPage = lazy(() => import('../features/cj/pages/CjProductEditPage'));

const protectedPage = (Page: LazyExoticComponent<ComponentType>) => <ProtectedRoute>{page(Page)}</ProtectedRoute>;
const adminPage = (Page: LazyExoticComponent<ComponentType>) => <AdminRoute>{page(Page)}</AdminRoute>;
const guestPage = (Page: LazyExoticComponent<ComponentType>) => <GuestOnlyRoute>{page(Page)}</GuestOnlyRoute>;

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/product/:slug', element: page(ProductPage) },
      { path: '/cj-product/:slug', element: page(CjProductPage) },
      { path: '/cart', element: page(CartPage) },
      { path: '/search', element: page(SearchPage) },
      { path: '/signin', element: page(SignInPage) },
      { path: '/signup', element: page(SignUpPage) },
      { path: '/forgot-password', element: guestPage(ForgotPasswordPage) },
      { path: '/reset-password', element: guestPage(ResetPasswordPage) },
      { path: '/privacy', element: page(PrivacyPage) },
      { path: '/confirm-signup', element: page(ConfirmSignUpPage) },
      { path: '/cj-products', element: page(CjProductsPublicPage) },
      { path: '/newsletter/unsubscribe', element: page(UnsubscribePage) },
      { path: '/shipping', element: protectedPage(ShippingPage) },
      { path: '/payment', element: protectedPage(PaymentPage) },
      { path: '/placeorder', element: protectedPage(PlaceOrderPage) },
      { path: '/order/:id', element: protectedPage(OrderPage) },
      { path: '/orderhistory', element: protectedPage(OrderHistoryPage) },
      { path: '/profile', element: protectedPage(ProfilePage) },
      { path: '/admin/dashboard', element: adminPage(DashboardPage) },
      { path: '/admin/products', element: adminPage(ProductListPage) },
      { path: '/admin/product/:id', element: adminPage(ProductEditPage) },
      { path: '/admin/product', element: adminPage(ProductEditPage) },
      { path: '/admin/orders', element: adminPage(OrderListPage) },
      { path: '/admin/order/:id', element: adminPage(OrderPage) },
      { path: '/admin/users', element: adminPage(UserListPage) },
      { path: '/admin/user/:id', element: adminPage(UserEditPage) },
      { path: '/admin/user', element: adminPage(UserEditPage) },
      { path: '/admin/leads', element: adminPage(LeadsPage) },
      { path: '/admin/chats', element: adminPage(ChatListPage) },
      { path: '/admin/chat/:id', element: adminPage(ChatDetailPage) },
      { path: '/admin/cj-products', element: adminPage(CjProductsPage) },
      { path: '/admin/cj-product-edit/:pid', element: adminPage(CjProductEditPage) },
      { path: '*', element: page(lazy(() => import('./NotFoundPage'))) },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
