import type { ReactElement, ReactNode } from 'react';
import { Navigate, useLocation, type NavigateProps } from 'react-router';
import { LoadingBox } from '../../../components/LoadingBox';
import { useCurrentUser } from '../api/get-current-user';
import { isSigningOut } from '../hooks/use-session';
import { useStore } from '../../../lib/store';

/** /signin?redirect=path, with the path's slashes kept readable (/signin?redirect=/profile). */
export const signinRedirectUrl = (path: string) => `/signin?redirect=${encodeURIComponent(path).replace(/%2F/gi, '/')}`;

/** Where a guard sends a visitor without a session; right after a sign-out, plain /signin (the sign-out's own target). */
const signinTarget = (path: string) => (isSigningOut() ? '/signin' : signinRedirectUrl(path));

function useSessionUser() {
  const { state } = useStore();
  // When nothing is stored yet but the visitor did not sign out, ask the server (session restore).
  const needsLookup = !state.userInfo && !state.isLoggedOut && !state.pendingRestore;
  const current = useCurrentUser(needsLookup);
  return { user: state.userInfo ?? (needsLookup ? current.data ?? null : null), isPending: needsLookup && current.isPending };
}

/**
 * What a signed-in route shows instead of its page: a LoadingBox while the session is looked up, a
 * redirect to /signin without a session (and, with `adminOnly`, for a customer); null when the page may show.
 */
function useSignedInGuard(adminOnly: boolean): ReactElement | null {
  const { state } = useStore();
  const { user, isPending } = useSessionUser();
  const location = useLocation();
  // Server-rendered (and hydrating): the session is known only once the browser's state is read.
  if (isPending || state.pendingRestore) return <LoadingBox />;
  if (!user) return <Navigate to={signinTarget(location.pathname + location.search)} replace />;
  // A customer may sign in with an administrator account instead: /signin explains it and comes back here.
  if (adminOnly && !user.isAdmin) return <Navigate to={signinRedirectUrl(location.pathname + location.search)} replace />;
  return null;
}

/** Signed-in routes: anonymous visitors go to /signin (and come back afterwards). */
export function ProtectedRoute({ children }: { children: ReactNode }) {
  return useSignedInGuard(false) ?? <>{children}</>;
}

/** Admin routes: anonymous visitors and customers go to /signin?redirect=path (with a notice). The server enforces it too. */
export function AdminRoute({ children }: { children: ReactNode }) {
  return useSignedInGuard(true) ?? <>{children}</>;
}

/**
 * `<Navigate>` once the page lives in the browser. A page rendered on the server (and its hydration)
 * renders nothing in its place: a redirect cannot happen in the HTML, and React Router warns when a
 * `<Navigate>` is rendered by the server. Right after hydration it navigates.
 */
export function Redirect(props: NavigateProps) {
  const { state } = useStore();
  return state.pendingRestore ? null : <Navigate {...props} />;
}

/** Forgot/reset password: signed-in users are sent to /. */
export function GuestOnlyRoute({ children }: { children: ReactNode }) {
  const { state } = useStore();
  if (state.userInfo) return <Redirect to="/" replace />;
  return <>{children}</>;
}
