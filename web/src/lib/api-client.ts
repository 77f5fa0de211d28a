import { readJson, storageKeys, writeJson } from './storage';

export const API_BASE = '/api/';

/** An error from the API: `message` is the server's own text when it sent one. */
export class ApiError extends Error {
  constructor(
    message: string,
    public readonly status: number,
    public readonly code?: string,
    public readonly fieldErrors?: Record<string, string>,
    /** Seconds to wait before trying again, from a 429's Retry-After header. */
    public readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Fired when the session cannot be refreshed; the app signs out locally and goes to /signin. */
export const SESSION_EXPIRED_EVENT = 'shop:session-expired';

const NO_REFRESH = ['users/signin', 'users/refresh-token'];
/** 401 codes that mean "no valid session" (a refresh may help); others are answers, e.g. a wrong current password. */
const SESSION_CODES = new Set([undefined, 'UNAUTHORIZED', 'ACCESS_TOKEN_EXPIRED']);

async function codeOf(res: Response): Promise<string | undefined> {
  try {
    const body = (await res.clone().json()) as { code?: unknown } | null;
    return typeof body?.code === 'string' ? body.code : undefined;
  } catch {
    return undefined;
  }
}
let refreshing: Promise<boolean> | null = null;

/** POST users/refresh-token, one at a time: concurrent callers share the same attempt (refresh tokens rotate). */
export function refreshSession(): Promise<boolean> {
  refreshing ??= fetch(`${API_BASE}users/refresh-token`, { method: 'POST', credentials: 'include' })
    .then((r) => r.ok)
    .catch(() => false)
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  body?: unknown;
  params?: Record<string, string | number | boolean | undefined | null>;
  signal?: AbortSignal;
  /** Extra request headers (an `Idempotency-Key`). */
  headers?: Record<string, string>;
}

function buildUrl(path: string, params?: RequestOptions['params']): string {
  const url = `${API_BASE}${path.replace(/^\//, '')}`;
  if (!params) return url;
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') search.set(k, String(v));
  const qs = search.toString();
  return qs ? `${url}?${qs}` : url;
}

/** What the API calls go through: the browser's fetch, or the server's own in-process one during SSR. */
export type ApiFetch = (url: string, init: RequestInit) => Promise<Response>;

let serverFetch: (() => ApiFetch | undefined) | null = null;

/**
 * Server rendering only (entry-server.tsx): the page's data is read with the same query functions
 * as in the browser, but each request's calls go to the server's own routes in-process. `resolve`
 * returns the fetch of the request being rendered (kept per request, never shared).
 */
export function setServerFetch(resolve: () => ApiFetch | undefined): void {
  serverFetch = resolve;
}

async function send(path: string, opts: RequestOptions): Promise<Response> {
  const isForm = typeof FormData !== 'undefined' && opts.body instanceof FormData;
  const fetcher: ApiFetch = serverFetch?.() ?? fetch;
  return fetcher(buildUrl(path, opts.params), {
    method: opts.method ?? 'GET',
    credentials: 'include',
    headers: opts.body !== undefined && !isForm ? { 'content-type': 'application/json', ...opts.headers } : opts.headers,
    body: opts.body === undefined ? undefined : isForm ? (opts.body as FormData) : JSON.stringify(opts.body),
    signal: opts.signal,
  });
}

/**
 * Calls the API with cookies. A 401 (except on sign-in/refresh, and not when the user signed out)
 * triggers one POST users/refresh-token and a replay; a failed refresh marks the session logged out.
 */
export async function apiRequest<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  let res = await send(path, opts);
  const clean = path.replace(/^\//, '');
  if (
    res.status === 401 &&
    !NO_REFRESH.some((p) => clean.startsWith(p)) &&
    !readJson<boolean>(storageKeys.isLoggedOut, false) &&
    SESSION_CODES.has(await codeOf(res))
  ) {
    if (await refreshSession()) {
      res = await send(path, opts);
    } else {
      console.error('Session refresh failed');
      writeJson(storageKeys.isLoggedOut, true);
      window.dispatchEvent(new CustomEvent(SESSION_EXPIRED_EVENT));
    }
  }
  const text = await res.text();
  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (!res.ok) {
    const body = (data ?? {}) as { message?: string; code?: string; fieldErrors?: Record<string, string> };
    const retryAfter = Number(res.headers.get('retry-after'));
    throw new ApiError(
      body.message ?? (res.statusText || 'Request failed'),
      res.status,
      body.code,
      body.fieldErrors,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    );
  }
  return data as T;
}

export const api = {
  get: <T>(path: string, params?: RequestOptions['params'], signal?: AbortSignal) => apiRequest<T>(path, { params, signal }),
  post: <T>(path: string, body?: unknown, headers?: Record<string, string>) => apiRequest<T>(path, { method: 'POST', body, headers }),
  put: <T>(path: string, body?: unknown) => apiRequest<T>(path, { method: 'PUT', body }),
  delete: <T>(path: string) => apiRequest<T>(path, { method: 'DELETE' }),
};

/** A wait in words: "in 45 seconds", "in 1 minute", "in 11 minutes" (rounded up), "in 2 hours". */
export function formatWait(seconds: number): string {
  if (seconds < 60) return `in ${Math.max(1, Math.ceil(seconds))} second${Math.ceil(seconds) === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 90) return `in ${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.ceil(minutes / 60);
  return `in ${hours} hours`;
}

/** The text to show for a failed call: the server's message, else the error's own. */
export function getErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 429 && error.retryAfterSeconds) {
    return `${error.message.replace(/ Please try again later\.$/, '')} Please try again ${formatWait(error.retryAfterSeconds)}.`;
  }
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return 'Something went wrong';
}
