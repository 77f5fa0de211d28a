import type { ComponentType } from 'react';
import { lazyPage, type LazyPart } from './lazy-page';
import { matchRoutes, useLocation, useRoutes, type RouteObject } from 'react-router';
import HomePage from '../features/products/pages/HomePage';
import { GuestOnlyRoute, ProtectedRoute } from '../features/auth/components/guards';
import { Layout, preloadLayout } from './layout/Layout';
import { page } from './page-element';

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
const ConfirmEmailPage = lazyPage(() => import('../features/users/pages/ConfirmEmailPage'));
const UnsubscribePage = lazyPage(() => import('../features/newsletter/pages/UnsubscribePage'));
const DevMailboxPage = lazyPage(() => import('../features/dev-mailbox/pages/DevMailboxPage'));
const InfoPage = lazyPage(() => import('../features/pages/pages/InfoPage'));
const NotFoundPage = lazyPage(() => import('../components/NotFoundPage'));

const protectedPage = (Page: ComponentType) => <ProtectedRoute>{page(Page)}</ProtectedRoute>;
const guestPage = (Page: ComponentType) => <GuestOnlyRoute>{page(Page)}</GuestOnlyRoute>;

interface RouteHandle {
  /** Loads the route's lazy page (before hydration, so the server's markup hydrates without waiting). */
  preload: () => Promise<void>;
  /** The catch-all: the server answers 404. */
  notFound?: true;
}

/** The element and handle of a route whose page is a lazy chunk. */
const lazyRoute = (Page: LazyPart<object>, wrap: (Page: ComponentType) => ReturnType<typeof page> = page) => ({
  element: wrap(Page),
  handle: { preload: Page.preload } satisfies RouteHandle,
});

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/product/:slug', ...lazyRoute(ProductPage) },
      { path: '/cj-product/:slug', ...lazyRoute(CjProductPage) },
      { path: '/cart', ...lazyRoute(CartPage) },
      { path: '/search', ...lazyRoute(SearchPage) },
      { path: '/signin', ...lazyRoute(SignInPage) },
      { path: '/signup', ...lazyRoute(SignUpPage) },
      { path: '/forgot-password', ...lazyRoute(ForgotPasswordPage, guestPage) },
      { path: '/reset-password', ...lazyRoute(ResetPasswordPage, guestPage) },
      { path: '/privacy', ...lazyRoute(PrivacyPage) },
      { path: '/confirm-signup', ...lazyRoute(ConfirmSignUpPage) },
      // The link mailed to a new address (a change of e-mail): signed in or not.
      { path: '/confirm-email', ...lazyRoute(ConfirmEmailPage) },
      { path: '/cj-products', ...lazyRoute(CjProductsPublicPage) },
      { path: '/newsletter/unsubscribe', ...lazyRoute(UnsubscribePage) },
      // Development only (the API answers 404 in production): the mail the shop kept.
      { path: '/dev/mailbox', ...lazyRoute(DevMailboxPage) },
      { path: '/pages/:slug', ...lazyRoute(InfoPage) },
      { path: '/shipping', ...lazyRoute(ShippingPage, protectedPage) },
      { path: '/payment', ...lazyRoute(PaymentPage, protectedPage) },
      { path: '/placeorder', ...lazyRoute(PlaceOrderPage, protectedPage) },
      { path: '/order/:id', ...lazyRoute(OrderPage, protectedPage) },
      { path: '/orderhistory', ...lazyRoute(OrderHistoryPage, protectedPage) },
      { path: '/profile', ...lazyRoute(ProfilePage, protectedPage) },
      // The back office's routes and pages are one lazy chunk: shoppers never download them.
      { path: '/admin/*', ...lazyRoute(AdminRoutes) },
      { path: '*', element: page(NotFoundPage), handle: { preload: NotFoundPage.preload, notFound: true } satisfies RouteHandle },
    ],
  },
];

/**
 * The app's routes, rendered by the declarative BrowserRouter (main.tsx) and StaticRouter
 * (entry-server.tsx): the data router's code (loaders, actions, fetchers), none of which the app
 * uses, would be a quarter of the initial chunk. Lazy pages are loaded ahead of hydration with
 * preloadRoute.
 */
export function AppRoutes() {
  return useRoutes(routesFor(useLocation().pathname));
}

/**
 * The routes that can match a path: the layout with only the pages whose first segment is the
 * path's (compared as the router does: decoded, any case) and the catch-all. React Router flattens,
 * compiles and ranks every route on each match (about 0.4 ms with this table, on every server
 * render); with the two or three that can match, the same match costs a few microseconds. Falls back
 * to the whole table whenever a path's first segment cannot be read.
 */
const layoutRoute = routes[0]!;
const pageRoutes = layoutRoute.children ?? [];
const firstSegment = (pathname: string) => (pathname.split('/')[1] ?? '').toLowerCase();
/** Every page path starts with a static segment (or is the root or the catch-all): the pruning holds. */
const isPrunable = routes.length === 1 && Object.keys(layoutRoute).join() === 'element,children' && pageRoutes.every((r) => r.path === '*' || (typeof r.path === 'string' && /^\/(?:[a-z0-9-]*|\*)(?:\/|$)/i.test(r.path)));
const catchAll = pageRoutes.filter((r) => r.path === '*');
/** Per first segment: the layout with that segment's pages and the catch-all, in the table's order. */
const prunedTables = new Map<string, RouteObject[]>();
for (const segment of new Set(pageRoutes.filter((r) => r.path !== '*').map((r) => firstSegment(r.path ?? '')))) {
  const children = pageRoutes.filter((r) => r.path === '*' || firstSegment(r.path ?? '') === segment);
  prunedTables.set(segment, [{ element: layoutRoute.element, children }]);
}
const catchAllOnly: RouteObject[] = [{ element: layoutRoute.element, children: catchAll }];

export function routesFor(pathname: string): RouteObject[] {
  if (!isPrunable) return routes;
  let segment: string;
  try {
    segment = decodeURIComponent(firstSegment(pathname)).toLowerCase();
  } catch {
    return routes;
  }
  return prunedTables.get(segment) ?? catchAllOnly;
}

/**
 * matchRoutes(routes, pathname), remembering the last path's answer: rendering a page on the server
 * matches its path three times (its data, its chunks, its status), and each call flattens, compiles
 * and ranks every route again (about 0.4 ms). The answer depends on the path only (the routes are fixed).
 */
let lastMatch: { pathname: string; matches: ReturnType<typeof matchRoutes> } | null = null;
function matchesOf(pathname: string): ReturnType<typeof matchRoutes> {
  if (lastMatch?.pathname !== pathname) lastMatch = { pathname, matches: matchRoutes(routesFor(pathname), pathname) };
  return lastMatch.matches;
}

/** The matched routes' handles for a path (the layout route has none). */
function handlesFor(pathname: string): RouteHandle[] {
  return (matchesOf(pathname) ?? []).flatMap((m) => (m.route.handle ? [m.route.handle as RouteHandle] : []));
}

/** Loads the code of the page at `pathname` and of the shell, so that rendering it does not suspend. */
export async function preloadRoute(pathname: string): Promise<void> {
  await Promise.all([preloadLayout(), ...handlesFor(pathname).map((h) => h.preload())]);
}

/** The page route matched by `pathname` (its pattern and parameters, decoded as the router does), or null. */
export function matchPage(pathname: string): { path: string; params: Record<string, string | undefined> } | null {
  const leaf = matchesOf(pathname)?.at(-1);
  return leaf ? { path: leaf.route.path ?? '', params: leaf.params } : null;
}

/** Whether `pathname` is no page of the app (the not-found page, answered with 404). */
export function isNotFoundPath(pathname: string): boolean {
  return handlesFor(pathname).some((h) => h.notFound);
}
