import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { customer } from '../../../test/render';
import { currentUserKey, primeSignedOut } from './get-current-user';

afterEach(() => localStorage.clear());

describe('primeSignedOut (a server-rendered page whose request had no session cookie)', () => {
  const primed = (noSession: boolean | undefined) => {
    const queryClient = new QueryClient();
    primeSignedOut(queryClient, noSession);
    return queryClient.getQueryState(currentUserKey);
  };

  it('caches "nobody" when the browser stored no session: users/current is not asked', () => {
    const state = primed(true);
    expect(state?.status).toBe('success');
    expect(state?.data).toBeNull();
  });

  it('caches "nobody" after an explicit sign-out too (nothing to renew)', () => {
    localStorage.setItem('userInfo', JSON.stringify(customer));
    localStorage.setItem('isLoggedOut', 'true');
    expect(primed(true)?.data).toBeNull();
  });

  it('leaves the question open when the browser stored a session: the refresh token may renew it', () => {
    localStorage.setItem('userInfo', JSON.stringify(customer));
    expect(primed(true)).toBeUndefined();
  });

  it('leaves it open when the page does not say the request had no session cookie', () => {
    expect(primed(undefined)).toBeUndefined();
    expect(primed(false)).toBeUndefined();
  });
});
