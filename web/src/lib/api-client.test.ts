import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../test/render';
import { api, ApiError, formatWait, SESSION_EXPIRED_EVENT } from './api-client';

describe('api client', () => {
  let expired: ReturnType<typeof vi.fn<(event: Event) => void>>;
  beforeEach(() => {
    expired = vi.fn<(event: Event) => void>();
    window.addEventListener(SESSION_EXPIRED_EVENT, expired);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    window.removeEventListener(SESSION_EXPIRED_EVENT, expired);
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('sends cookies and JSON', async () => {
    const { fetchMock } = mockApi({ 'PUT users/profile': (body) => ({ body }) });
    await expect(api.put('users/profile', { name: 'Jane' })).resolves.toEqual({ name: 'Jane' });
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.credentials).toBe('include');
    expect(init?.headers).toEqual({ 'content-type': 'application/json' });
  });

  it('on a 401 refreshes the session once and replays the request', async () => {
    let orderCalls = 0;
    const { calls } = mockApi({
      'GET orders/mine': () => (++orderCalls === 1 ? { status: 401, body: { message: 'Not signed in' } } : { body: [{ _id: 'o1' }] }),
      'POST users/refresh-token': () => ({ status: 200, body: { message: 'ok' } }),
    });
    await expect(api.get('orders/mine')).resolves.toEqual([{ _id: 'o1' }]);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET orders/mine', 'POST users/refresh-token', 'GET orders/mine']);
    expect(expired).not.toHaveBeenCalled();
  });

  it('concurrent 401s share one refresh (refresh tokens rotate)', async () => {
    const seen = new Set<string>();
    const { callsTo } = mockApi({
      'GET a': () => (seen.has('a') ? { body: 'A' } : (seen.add('a'), { status: 401 })),
      'GET b': () => (seen.has('b') ? { body: 'B' } : (seen.add('b'), { status: 401 })),
      'POST users/refresh-token': async () => {
        await new Promise((r) => setTimeout(r, 10));
        return { status: 200 };
      },
    });
    await expect(Promise.all([api.get('a'), api.get('b')])).resolves.toEqual(['A', 'B']);
    expect(callsTo('POST users/refresh-token')).toHaveLength(1);
  });

  it('a failed refresh sets isLoggedOut, fires the session-expired event and surfaces the 401', async () => {
    const { calls } = mockApi({
      'GET cart': () => ({ status: 401, body: { message: 'Not signed in' } }),
      'POST users/refresh-token': () => ({ status: 401, body: { message: 'Your session has expired. Please sign in again.' } }),
    });
    const error = await api.get('cart').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect((error as ApiError).message).toBe('Not signed in');
    expect(calls).toHaveLength(2);
    expect(localStorage.getItem('isLoggedOut')).toBe('true');
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it('does not refresh on the sign-in URL', async () => {
    const { calls } = mockApi({ 'POST users/signin': () => ({ status: 401, body: { message: 'Invalid email or password' } }) });
    await expect(api.post('users/signin', { email: 'a@b.co', password: 'x' })).rejects.toThrow('Invalid email or password');
    expect(calls).toHaveLength(1);
    expect(expired).not.toHaveBeenCalled();
  });

  it('does not refresh on a 401 that is an answer, not a lost session (wrong current password)', async () => {
    const { calls } = mockApi({
      'PUT users/profile': () => ({ status: 401, body: { message: 'Current password is incorrect', code: 'CURRENT_PASSWORD_INCORRECT' } }),
    });
    await expect(api.put('users/profile', { name: 'A', email: 'a@b.co', currentPassword: 'x' })).rejects.toThrow('Current password is incorrect');
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['PUT users/profile']);
    expect(expired).not.toHaveBeenCalled();
  });

  it('does not refresh when the user signed out (isLoggedOut)', async () => {
    localStorage.setItem('isLoggedOut', 'true');
    const { calls } = mockApi({ 'GET cart': () => ({ status: 401, body: { message: 'Not signed in' } }) });
    await expect(api.get('cart')).rejects.toThrow('Not signed in');
    expect(calls).toHaveLength(1);
    expect(expired).not.toHaveBeenCalled();
  });

  it("shows the server's message, else the status text", async () => {
    mockApi({ 'GET x': () => ({ status: 404, body: { message: 'Product Not Found' } }), 'GET y': () => ({ status: 500 }) });
    await expect(api.get('x')).rejects.toThrow('Product Not Found');
    await expect(api.get('y')).rejects.toBeInstanceOf(ApiError);
  });
});

describe('formatWait', () => {
  it('words a wait, rounding up', () => {
    expect(formatWait(1)).toBe('in 1 second');
    expect(formatWait(45)).toBe('in 45 seconds');
    expect(formatWait(60)).toBe('in 1 minute');
    expect(formatWait(624)).toBe('in 11 minutes');
    expect(formatWait(3 * 3600)).toBe('in 3 hours');
  });
});
