import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { useRoutes, type RouteObject } from 'react-router';
import { PageLoading } from '../components/PageLoading';
import HomePage from '../features/products/pages/HomePage';
import { GuestOnlyRoute, ProtectedRoute } from './guards';
import { Layout } from './layout/Layout';

export const page = (Page: LazyExoticComponent<ComponentType>) => (
  <Suspense fallback={<PageLoading />}>
    <Page />
  </Suspense>
);

// Storefront pages load on demand; the admin routes (admin-routes.tsx) and pages live in their own chunks.
const AdminRoutes = lazy(() => import('./admin-routes'));
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
const UnsubscribePage = lazy(() => import('../features/newsletter/pages/UnsubscribePage'));
const InfoPage = lazy(() => import('../features/pages/pages/InfoPage'));

const protectedPage = (Page: LazyExoticComponent<ComponentType>) => <ProtectedRoute>{page(Page)}</ProtectedRoute>;
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
      { path: '/pages/:slug', element: page(InfoPage) },
      { path: '/shipping', element: protectedPage(ShippingPage) },
      { path: '/payment', element: protectedPage(PaymentPage) },
      { path: '/placeorder', element: protectedPage(PlaceOrderPage) },
      { path: '/order/:id', element: protectedPage(OrderPage) },
      { path: '/orderhistory', element: protectedPage(OrderHistoryPage) },
      { path: '/profile', element: protectedPage(ProfilePage) },
      // The back office's routes and pages are one lazy chunk: shoppers never download them.
      { path: '/admin/*', element: page(AdminRoutes) },
      { path: '*', element: page(lazy(() => import('./NotFoundPage'))) },
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
