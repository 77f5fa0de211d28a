// First: configures zod before any schema is built (see the module).
import './lib/zod-jitless';
import 'bootstrap/dist/css/bootstrap.min.css';
import './styles.css';
import { hydrate } from '@tanstack/react-query';
import { startTransition, StrictMode, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppErrorBoundary } from './app/AppErrorBoundary';
import { AppProviders, createQueryClient } from './app/providers';
import { AppRoutes, preloadRoute } from './app/router';
import { replayEarlyClicks } from './lib/early-clicks';
import { serverInitialState, useStore, type StoreState } from './lib/store';
import { primeSignedOut } from './features/auth/api/get-current-user';
import { cartQueryKey } from './features/cart/api/get-cart';
import type { ServerCart } from './features/cart/types';
import { SSR_DATA_ID, type SsrData } from './ssr/ssr-data';

const queryClient = createQueryClient();

/**
 * Marks `<html data-app-ready>` once the app is live (hydrated, or first rendered in the browser, and
 * the browser's stored state restored over the server's), the frame after those effects: until then a
 * server-rendered page shows but does not react to clicks. Then the clicks kept meanwhile are made
 * again (lib/early-clicks.ts): after the restore, so an early Add to Cart lands in the restored cart
 * and is not overwritten by it. The browser tests wait for the mark after each navigation
 * (e2e/tests/fixtures.ts). Renders nothing.
 */
function AppReadyMark() {
  const isRestored = !useStore().state.pendingRestore;
  useEffect(() => {
    if (!isRestored) return;
    const frame = requestAnimationFrame(() => {
      document.documentElement.setAttribute('data-app-ready', '');
      replayEarlyClicks();
    });
    return () => cancelAnimationFrame(frame);
  }, [isRestored]);
  return null;
}

const app = (storeState?: StoreState) => (
  <StrictMode>
    <AppProviders queryClient={queryClient} storeState={storeState}>
      <BrowserRouter>
        <AppErrorBoundary>
          <AppRoutes />
        </AppErrorBoundary>
      </BrowserRouter>
      <AppReadyMark />
    </AppProviders>
  </StrictMode>
);

/** The data of a server-rendered page, or null when the page is the plain shell (no server rendering). */
function readSsrData(): SsrData | null {
  const block = document.getElementById(SSR_DATA_ID);
  if (!block?.textContent) return null;
  try {
    return JSON.parse(block.textContent) as SsrData;
  } catch {
    return null;
  }
}

const container = document.getElementById('root')!;
const ssrData = container.hasChildNodes() ? readSsrData() : null;

if (ssrData) {
  // The server rendered this page: the queries it loaded go into the cache (no refetch), the page's
  // lazy code is loaded first (nothing suspends), and the first render is the server's state (its
  // theme; the signed-in visitor and their cart when it saw a session, else nobody, and when the request
  // had no session cookie at all, users/current is not asked); the browser's stored state follows
  // right after hydration.
  hydrate(queryClient, ssrData.queries);
  primeSignedOut(queryClient, ssrData.noSession);
  const viewer = ssrData.user ? { user: ssrData.user, cartItems: queryClient.getQueryData<ServerCart>(cartQueryKey)?.cartItems ?? [] } : null;
  // Hydration as a transition too: React hydrates in slices of a few milliseconds and yields to the
  // browser between them, instead of one long task over the whole page (Lighthouse's Total Blocking
  // Time on a slow phone). A click before it finishes hydrates that part first (React replays it).
  void preloadRoute(window.location.pathname).finally(() => {
    startTransition(() => {
      // Neither a user nor "no session": the request had a session cookie, the page was rendered for no one.
      hydrateRoot(container, app(serverInitialState(ssrData.mode, viewer, !ssrData.user && !ssrData.noSession)));
    });
  });
} else {
  const root = createRoot(container);
  // The first render as a transition: React yields to the browser every few milliseconds instead of
  // rendering the whole shell in one long task (the main thread stays responsive while the app starts).
  startTransition(() => {
    root.render(app());
  });
}
