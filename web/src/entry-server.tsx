// Server rendering of the storefront (built with `vite build --ssr`, loaded by server/src/lib/ssr.ts).
import './lib/zod-jitless';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Writable } from 'node:stream';
import type { Cart, User } from '@shop/contracts';
import { dehydrate, type QueryClient } from '@tanstack/react-query';
import { StrictMode, type ReactNode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { AppErrorBoundary } from './app/AppErrorBoundary';
import { AppProviders, createQueryClient } from './app/providers';
import { AppRoutes, isNotFoundPath, matchPage, preloadRoute } from './app/router';
import { serverInitialState, type Mode } from './lib/store';
import { currentUserKey } from './features/auth/api/get-current-user';
import { cartQueryKey } from './features/cart/api/get-cart';
import { cjProductBySlugQueryOptions } from './features/cj/api/get-cj-product-by-slug';
import { devMailboxQueryOptions } from './features/dev-mailbox/api/dev-mailbox';
import { pageQueryOptions } from './features/pages/api/pages';
import { categoriesQueryOptions } from './features/products/api/get-categories';
import { productQueryOptions } from './features/products/api/get-product';
import { productsQueryOptions } from './features/products/api/get-products';
import { searchQueryOptions } from './features/search/api/search-products';
import { parseSearchFilters } from './features/search/lib/search-filters';
import { ApiError, setServerFetch, type ApiFetch } from './lib/api-client';
import { jsonForScript, type SsrData } from './ssr/ssr-data';

export { SSR_DATA_ID } from './ssr/ssr-data';

/** The request being rendered: its API calls go to the server's own routes (in-process, anonymous). */
const requestFetch = new AsyncLocalStorage<ApiFetch>();
setServerFetch(() => requestFetch.getStore());

export interface RenderRequest {
  /** The page's path and query string (/search?query=x). */
  url: string;
  /** The theme to render (the visitor's `mode` cookie; light without one). */
  mode: Mode;
  /** Answers the page's API reads; the server passes its own routes, called without the visitor's cookies. */
  fetch: ApiFetch;
  /** Rendering that takes longer is abandoned (the server then sends the client-rendered shell). */
  timeoutMs: number;
  /**
   * The signed-in visitor (their session checked by the server) and their cart: the header shows
   * their name and cart badge. Null: rendered for nobody in particular.
   */
  viewer?: { user: User; cart: Cart | null } | null;
  /** The request carried an access cookie (valid or not): without one, the page says nobody is signed in. */
  sessionCookie?: boolean;
}

export interface RenderResult {
  /** 404 for no page of the app and for a product, supplier product or information page that does not exist. */
  status: number;
  /** The markup of `<div id="root">`. */
  appHtml: string;
  /** Resource hints React emitted for the page (preloads of its first images), for the document's head. */
  headHtml: string;
  /** JSON (safe inside a script element) of SsrData. */
  data: string;
}

/** A read that answered 404 (or 400: a slug no page can have) means the page does not exist. */
const isMissing = (error: unknown) => error instanceof ApiError && (error.status === 404 || error.status === 400);

/**
 * Loads the data the page at `pathname` shows, through the query options its components use (so
 * the keys and functions are the same ones). Returns whether the page's own subject is missing.
 */
async function prefetch(queryClient: QueryClient, pathname: string, params: URLSearchParams): Promise<boolean> {
  // No retry on the server: a failed read is the browser's to retry.
  const load = <T,>(options: T) => queryClient.prefetchQuery({ ...(options as Parameters<QueryClient['prefetchQuery']>[0]), retry: false });
  const reads: Promise<unknown>[] = [load(categoriesQueryOptions())];
  let subject: readonly unknown[] | null = null;
  const page = matchPage(pathname);
  const slug = page?.params.slug ?? '';
  switch (page?.path) {
    case '/':
      reads.push(load(productsQueryOptions()));
      break;
    case '/search':
      reads.push(load(searchQueryOptions(parseSearchFilters(params))));
      break;
    case '/product/:slug':
      subject = productQueryOptions(slug).queryKey;
      reads.push(load(productQueryOptions(slug)));
      break;
    case '/cj-product/:slug':
      subject = cjProductBySlugQueryOptions(slug).queryKey;
      reads.push(load(cjProductBySlugQueryOptions(slug)));
      break;
    case '/pages/:slug':
      subject = pageQueryOptions(slug).queryKey;
      reads.push(load(pageQueryOptions(slug)));
      break;
    case '/dev/mailbox':
      // Only a development shop without SMTP_URL has it: elsewhere the page is a 404 (the messages
      // themselves are not rendered on the server; the browser reads them).
      subject = devMailboxQueryOptions().queryKey;
      reads.push(load(devMailboxQueryOptions()));
      break;
  }
  await Promise.all(reads);
  const missing = subject !== null && isMissing(queryClient.getQueryState(subject)?.error);
  // The mailbox's messages (sign-up and reset links) stay out of the page's HTML: the browser reads them.
  if (page?.path === '/dev/mailbox') queryClient.removeQueries({ queryKey: devMailboxQueryOptions().queryKey });
  // A failed read is left to the browser (it retries and shows the error): the server renders its
  // loading state, as the browser's first render does, so hydration matches.
  queryClient.removeQueries({ predicate: (query) => query.state.status !== 'success' });
  return missing;
}

function renderToString(element: ReactNode, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let failed: unknown = null;
    const chunks: Uint8Array[] = [];
    // What React's pipe() uses of a destination (write, end, on): a collecting object instead of a
    // stream.Writable, whose per-chunk bookkeeping (callbacks, ticks) cost more than the copying.
    const sink = {
      write(chunk: Uint8Array | string) {
        chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
        return true;
      },
      end() {
        if (failed) reject(failed instanceof Error ? failed : new Error(String(failed)));
        else resolve(Buffer.concat(chunks).toString('utf8'));
      },
      destroy(error?: unknown) {
        reject(error instanceof Error ? error : new Error(String(error ?? failed ?? 'server rendering was abandoned')));
      },
      on() {
        return sink;
      },
    };
    const stream = renderToPipeableStream(element, {
      // Every boundary inline, however large: no boundary is sent hidden to be revealed by a script
      // (a browser without JavaScript would not see it, and the Content-Security-Policy forbids inline scripts).
      progressiveChunkSize: Number.MAX_SAFE_INTEGER,
      // Everything (lazy pages, the footer) is in before a byte goes out: a browser without
      // JavaScript gets the whole page, and a failure can still fall back to the plain shell.
      onAllReady() {
        clearTimeout(timer);
        stream.pipe(sink as unknown as Writable);
      },
      onShellError(error) {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
      onError(error) {
        // Any error (React would render that part on the client, with a warning): the whole page falls back.
        failed ??= error;
      },
    });
    const timer = setTimeout(() => {
      failed ??= new Error(`server rendering took longer than ${timeoutMs} ms`);
      stream.abort(failed);
    }, timeoutMs);
  });
}

/** Renders the storefront page at `request.url` with the data it needs. Throws when it cannot (the server then sends the shell). */
export async function render(request: RenderRequest): Promise<RenderResult> {
  const url = new URL(request.url, 'http://localhost');
  const queryClient = createQueryClient();
  const viewer = request.viewer ?? null;
  if (viewer) {
    // What SessionSync and CartSync would fetch first in the browser: dehydrated with the page, they
    // are not fetched again, and the header they feed is the same before and after hydration.
    queryClient.setQueryData(currentUserKey, viewer.user);
    if (viewer.cart) queryClient.setQueryData(cartQueryKey, viewer.cart);
  }
  const [missing] = await Promise.all([
    requestFetch.run(request.fetch, () => prefetch(queryClient, url.pathname, url.searchParams)),
    preloadRoute(url.pathname),
  ]);
  const html = await renderToString(
    <StrictMode>
      <AppProviders queryClient={queryClient} storeState={serverInitialState(request.mode, viewer && { user: viewer.user, cartItems: viewer.cart?.cartItems ?? [] }, Boolean(request.sessionCookie))}>
        <StaticRouter location={url.pathname + url.search}>
          <AppErrorBoundary>
            <AppRoutes />
          </AppErrorBoundary>
        </StaticRouter>
      </AppProviders>
    </StrictMode>,
    request.timeoutMs,
  );
  // Inline scripts would mean a part left to the browser (React's instructions), which the
  // Content-Security-Policy would block: the page is not sent like that.
  if (html.includes('<script')) throw new Error('server-rendered page holds inline scripts');
  const data: SsrData = {
    mode: request.mode,
    ...(viewer ? { user: viewer.user } : request.sessionCookie ? {} : { noSession: true as const }),
    queries: dehydrate(queryClient),
  };
  queryClient.clear();
  // React puts the hints of preload() calls first when it renders no <head> of its own; they belong
  // in the head (in the root element they would not match what the browser renders).
  const headHtml = /^(?:<link\b[^>]*>)*/.exec(html)?.[0] ?? '';
  return {
    status: missing || isNotFoundPath(url.pathname) ? 404 : 200,
    appHtml: html.slice(headHtml.length),
    headHtml,
    data: jsonForScript(data),
  };
}
