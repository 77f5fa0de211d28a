import { Suspense, type ComponentType } from 'react';
import { lazyPage } from './lazy-page';
import { useRoutes, type RouteObject } from 'react-router';
import { PageLoading } from '../components/PageLoading';
import HomePage from '../features/products/pages/HomePage';
import { GuestOnlyRoute, ProtectedRoute } from './guards';
import { Layout } from './layout/Layout';

export const page = (Page: ComponentType) => (
  <Suspense fallback={<PageLoading />}>
    <Page />
  </Suspense>
);

// Storefront pages load on demand; the admin routes (admin-routes.tsx) and pages live in their own chunks.
const AdminRoutes = lazyPage(() => import('./admin-routes'));
const ProductPage = lazyPage(() => import('../features/products/pages/ProductPage'));
const CjProductPage = lazyPage(() => import('../features/cj/pages/CjProductPage'));
const CjProductsPublicPage = lazyPage(() => import('../features/cj/pages/CjProductsPublicPage'));
const CartPage = lazyPage(() => import('../features/cart/pages/CartPage'));
const SearchPage = lazyPage(() => import('../features/search/pages/SearchPage'));
const SignInPage = lazyPage(() => import('../features/auth/pages/SignInPage'));
const SignUpPage = lazyPage(() => import('../features/auth/pages/SignUpPage'));
const ForgotPasswordPage = lazyPage(() => import('../features/auth/pages/ForgotPasswordPage'));
const ResetPasswordPage = lazyPage(() => import('../features/auth/pages/ResetPasswordPage'));
const ConfirmSignUpPage = lazyPage(() => import('../features/auth/pages/ConfirmSignUpPage'));
const PrivacyPage = lazyPage(() => import('../features/privacy/pages/PrivacyPage'));
const ShippingPage = lazyPage(() => import('../features/checkout/pages/ShippingPage'));
const PaymentPage = lazyPage(() => import('../features/checkout/pages/PaymentPage'));
const PlaceOrderPage = lazyPage(() => import('../features/checkout/pages/PlaceOrderPage'));
const OrderPage = lazyPage(() => import('../features/orders/pages/OrderPage'));
const OrderHistoryPage = lazyPage(() => import('../features/orders/pages/OrderHistoryPage'));
const ProfilePage = lazyPage(() => import('../features/users/pages/ProfilePage'));
const UnsubscribePage = lazyPage(() => import('../features/newsletter/pages/UnsubscribePage'));
const DevMailboxPage = lazyPage(() => import('../features/dev-mailbox/pages/DevMailboxPage'));
const InfoPage = lazyPage(() => import('../features/pages/pages/InfoPage'));

const protectedPage = (Page: ComponentType) => <ProtectedRoute>{page(Page)}</ProtectedRoute>;
const guestPage = (Page: ComponentType) => <GuestOnlyRoute>{page(Page)}</GuestOnlyRoute>;

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
      // Development only (the API answers 404 in production): the mail the shop kept.
      { path: '/dev/mailbox', element: page(DevMailboxPage) },
      { path: '/pages/:slug', element: page(InfoPage) },
      { path: '/shipping', element: protectedPage(ShippingPage) },
      { path: '/payment', element: protectedPage(PaymentPage) },
      { path: '/placeorder', element: protectedPage(PlaceOrderPage) },
      { path: '/order/:id', element: protectedPage(OrderPage) },
      { path: '/orderhistory', element: protectedPage(OrderHistoryPage) },
      { path: '/profile', element: protectedPage(ProfilePage) },
      // The back office's routes and pages are one lazy chunk: shoppers never download them.
      { path: '/admin/*', element: page(AdminRoutes) },
      { path: '*', element: page(lazyPage(() => import('./NotFoundPage'))) },
    ],
  },
];

/**
 * The app's routes, rendered by the declarative BrowserRouter (main.tsx): the data router's code
 * (loaders, actions, fetchers), none of which the app uses, would be a quarter of the initial chunk.
 */
export function AppRoutes() {
  return useRoutes(routes);
}
