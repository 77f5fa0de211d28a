import type { Product, Review, User } from '@shop/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { loadInitialState, StoreProvider, type StoreState } from '../lib/store';
import { LocationProbe } from './render';

/** Test data and rendering for the catalogue features (products, search, admin products). */

let seq = 0;
const hexId = () => (++seq).toString(16).padStart(24, '0');

export function makeProduct(overrides: Partial<Product> = {}): Product {
  return {
    _id: hexId(),
    name: 'Blue Mug',
    slug: 'blue-mug',
    price: 20,
    finalPrice: 20,
    image: '/uploads/blue-mug.webp',
    images: [],
    category: 'Kitchen',
    brand: 'Acme',
    countInStock: 5,
    description: 'A sturdy blue mug.',
    rating: 4,
    numReviews: 2,
    reviews: [],
    isTodaysDeal: false,
    isGift: false,
    isOnSale: false,
    saleDiscount: 0,
    cjData: null,
    createdAt: '2025-01-02T10:00:00.000Z',
    updatedAt: '2025-01-02T10:00:00.000Z',
    ...overrides,
  };
}

export function makeReview(overrides: Partial<Review> = {}): Review {
  return { _id: hexId(), name: 'Jane Customer', rating: 5, comment: 'Lovely.', createdAt: '2025-02-03T12:00:00.000Z', ...overrides };
}

export function stateWith(userInfo: User | null): StoreState {
  return { ...loadInitialState(), userInfo };
}

/**
 * Renders `ui` at `route` (matched by `path`, so useParams works) inside the app's providers.
 * Any other location renders only the probe, whose text is the current path and query.
 */
export function renderPage(ui: ReactElement, { route = '/', path = '/', state }: { route?: string; path?: string; state?: StoreState } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path, element: <>{ui}<LocationProbe /></> },
      { path: '*', element: <LocationProbe /> },
    ],
    { initialEntries: [route] },
  );
  const result = render(
    <QueryClientProvider client={queryClient}>
      <StoreProvider initialState={state ?? stateWith(null)}>
        <RouterProvider router={router} />
      </StoreProvider>
    </QueryClientProvider>,
  );
  return { ...result, router, queryClient };
}

export interface ApiCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}
type Handler = (call: ApiCall) => { status?: number; body?: unknown } | Promise<{ status?: number; body?: unknown }>;

/**
 * Replaces fetch: routes are 'METHOD path' without /api/ and the query string ('GET products/search').
 * Unknown routes answer 404 { message: 'Not found' }. Returns the recorded calls.
 */
export function mockApi(routes: Record<string, Handler>) {
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = url.pathname.replace(/^\/api\//, '');
    let body: unknown = init?.body;
    if (typeof body === 'string') body = JSON.parse(body);
    const call = { method, path, query: url.searchParams, body };
    calls.push(call);
    const handler = routes[`${method} ${path}`];
    const res = handler ? await handler(call) : { status: 404, body: { message: 'Not found' } };
    return new Response(res.body === undefined ? null : JSON.stringify(res.body), {
      status: res.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, callsTo: (key: string) => calls.filter((c) => `${c.method} ${c.path}` === key) };
}
