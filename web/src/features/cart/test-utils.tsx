/* Test helpers shared by the cart, checkout and orders tests (not part of the app bundle). */
import type { Product, User } from '@shop/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { useLayoutEffect, type ReactElement, type ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { vi } from 'vitest';
import { DEFAULT_PAYMENT_METHOD, StoreProvider, useStore, type CartItem, type StoreAction, type StoreState } from '../../app/store';

export const customer: User = { _id: 'aaaaaaaaaaaaaaaaaaaaaaaa', name: 'Jane Customer', email: 'jane@example.com', isAdmin: false };
export const admin: User = { _id: 'bbbbbbbbbbbbbbbbbbbbbbbb', name: 'Admin', email: 'admin@example.com', isAdmin: true };

export function makeProduct(overrides: Partial<Product> = {}): Product {
  return {
    _id: '111111111111111111111111',
    name: 'Blue Mug',
    slug: 'blue-mug',
    price: 10,
    finalPrice: 9,
    image: '/images/mug.jpg',
    images: [],
    category: 'Kitchen',
    brand: 'Acme',
    countInStock: 5,
    description: 'A mug',
    rating: 4,
    numReviews: 1,
    isTodaysDeal: false,
    isGift: false,
    isOnSale: true,
    saleDiscount: 10,
    cjData: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function makeCartItem(overrides: Partial<CartItem> = {}): CartItem {
  return {
    _id: '111111111111111111111111',
    name: 'Blue Mug',
    slug: 'blue-mug',
    image: '/images/mug.jpg',
    price: 9,
    countInStock: 5,
    quantity: 1,
    isOnSale: true,
    saleDiscount: 10,
    isTodaysDeal: false,
    isGift: false,
    cjData: null,
    ...overrides,
  };
}

export function makeState(overrides: { userInfo?: User | null; cartItems?: CartItem[]; shippingAddress?: StoreState['cart']['shippingAddress'] } = {}): StoreState {
  return {
    userInfo: overrides.userInfo ?? null,
    isLoggedOut: false,
    mode: 'light',
    cart: { cartItems: overrides.cartItems ?? [], shippingAddress: overrides.shippingAddress ?? null, paymentMethod: DEFAULT_PAYMENT_METHOD },
    message: null,
  };
}

type Reply = { status?: number; body?: unknown };
type Handler = (body: unknown, url: URL) => Reply | Promise<Reply>;

/**
 * Stubs fetch with handlers keyed 'METHOD path' (path after /api/, no query). Unknown calls answer 500.
 * Returns the recorded calls.
 */
export function mockApi(handlers: Record<string, Handler>) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = url.pathname.replace(/^\/api\//, '');
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, path, body });
    const handler = handlers[`${method} ${path}`];
    const reply = handler ? await handler(body, url) : { status: 500, body: { message: 'Unexpected call' } };
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'content-type': 'application/json' },
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

function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname + location.search}</div>;
}

export function createTestQueryClient() {
  return new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } } });
}

/** Renders `ui` at `route` (matched by `path`) inside the store, query client and a memory router. */
export function renderWithProviders(
  ui: ReactElement,
  { route = '/', path = '*', state = makeState(), queryClient = createTestQueryClient(), extra }: { route?: string; path?: string; state?: StoreState; queryClient?: QueryClient; extra?: ReactNode } = {},
) {
  const { probe, StoreProbe } = createStoreProbe();
  const result = render(
    <QueryClientProvider client={queryClient}>
      <StoreProvider initialState={state}>
        <MemoryRouter initialEntries={[route]}>
          <StoreProbe />
          {extra}
          <LocationProbe />
          <Routes>
            <Route path={path} element={ui} />
            {path !== '*' && <Route path="*" element={<div>Other page</div>} />}
          </Routes>
        </MemoryRouter>
      </StoreProvider>
    </QueryClientProvider>,
  );
  return { ...result, probe, queryClient };
}
