/* Test helpers shared by the feature tests (not part of the app bundle): users, store state, a fetch stub and a rendering with the app's providers. */
import type { User } from '@shop/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { useLayoutEffect, type ReactElement, type ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { vi } from 'vitest';
import { DEFAULT_PAYMENT_METHOD, StoreProvider, useStore, type StoreAction, type StoreState } from '../lib/store';

export const customer: User = { _id: 'aaaaaaaaaaaaaaaaaaaaaaaa', name: 'Jane Customer', email: 'jane@example.com', isAdmin: false };
export const admin: User = { _id: 'bbbbbbbbbbbbbbbbbbbbbbbb', name: 'Admin', email: 'admin@example.com', isAdmin: true };

/** A signed-out store with an empty cart, changed by `overrides`. */
export function makeState(overrides: Partial<StoreState> = {}): StoreState {
  return {
    userInfo: null,
    isLoggedOut: false,
    mode: 'light',
    cart: { cartItems: [], shippingAddress: null, paymentMethod: DEFAULT_PAYMENT_METHOD },
    message: null,
    ...overrides,
  };
}

type Reply = { status?: number; body?: unknown; headers?: Record<string, string> };
type Handler = (body: unknown, url: URL) => Reply | Promise<Reply>;

/**
 * Stubs fetch with handlers keyed 'METHOD path' (path after /api/, no query). Unknown calls answer 500.
 * Returns the recorded calls.
 */
export function mockApi(handlers: Record<string, Handler>) {
  /** `headers`: only on calls that sent headers beyond content-type (an Idempotency-Key), lower-cased. */
  const calls: { method: string; path: string; body: unknown; headers?: Record<string, string> }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = url.pathname.replace(/^\/api\//, '');
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const headers = Object.fromEntries([...new Headers(init?.headers).entries()].filter(([name]) => name !== 'content-type'));
    calls.push({ method, path, body, ...(Object.keys(headers).length ? { headers } : {}) });
    const handler = handlers[`${method} ${path}`];
    const reply = handler ? await handler(body, url) : { status: 500, body: { message: 'Unexpected call' } };
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'content-type': 'application/json', ...reply.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock, callsTo: (key: string) => calls.filter((c) => `${c.method} ${c.path}` === key) };
}

/** Exposes the store to the test: `probe.state` is always current; `probe.dispatch` drives it. */
export function createStoreProbe() {
  const probe = { state: null as unknown as StoreState, dispatch: (() => undefined) as (a: StoreAction) => void };
  function StoreProbe() {
    const { state, dispatch } = useStore();
    useLayoutEffect(() => {
      probe.state = state;
      probe.dispatch = dispatch;
    }, [state, dispatch]);
    return null;
  }
  return { probe, StoreProbe };
}

/** Its text is the current path and query. */
export function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname + location.search}</div>;
}

export function createTestQueryClient() {
  return new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } } });
}

export interface RenderOptions {
  route?: string;
  path?: string;
  state?: StoreState;
  queryClient?: QueryClient;
  extra?: ReactNode;
  /** Render react-toastify's container (off for tests that mock react-toastify). */
  toasts?: boolean;
}

/**
 * Renders `ui` at `route` (matched by `path`) inside the store, a query client, a memory router and,
 * unless `toasts` is false, a toast container.
 */
export function renderWithProviders(
  ui: ReactElement,
  { route = '/', path = '*', state = makeState(), queryClient = createTestQueryClient(), extra, toasts = true }: RenderOptions = {},
) {
  const { probe, StoreProbe } = createStoreProbe();
  const result = render(
    <QueryClientProvider client={queryClient}>
      <StoreProvider initialState={state}>
        <MemoryRouter initialEntries={[route]}>
          {toasts && <ToastContainer position="bottom-center" limit={1} />}
          <StoreProbe />
          <LocationProbe />
          <Routes>
            <Route path={path} element={ui} />
            <Route path="/signin" element={<h1>Sign In page</h1>} />
            {path !== '*' && <Route path="/" element={<h1>Home page</h1>} />}
            {path !== '*' && <Route path="*" element={<h1>Other page</h1>} />}
          </Routes>
          {extra}
        </MemoryRouter>
      </StoreProvider>
    </QueryClientProvider>,
  );
  return { ...result, probe, queryClient };
}

/** A text matcher for an e-mail address shown with components/EmailText (its parts are separate elements): `screen.getByText(emailText('jane@example.com'))`. */
export const emailText = (email: string) => (_content: string, element: Element | null) =>
  element?.classList.contains('shop-email') === true && element.textContent === email;
