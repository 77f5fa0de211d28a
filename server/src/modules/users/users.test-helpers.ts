import type { LightMyRequestResponse } from 'fastify';
import { ACCESS_COOKIE, REFRESH_COOKIE } from '../../lib/auth.ts';

/** The auth cookies a response set, as a Cookie header for the next app.inject. */
export function authCookies(res: LightMyRequestResponse): { access: string; refresh: string; header: string } {
  const jar = Object.fromEntries(res.cookies.map((c) => [c.name, c.value]));
  const access = jar[ACCESS_COOKIE] ?? '';
  const refresh = jar[REFRESH_COOKIE] ?? '';
  return { access, refresh, header: `${ACCESS_COOKIE}=${access}; ${REFRESH_COOKIE}=${refresh}` };
}

export const refreshCookie = (token: string) => `${REFRESH_COOKIE}=${token}`;
export const accessCookie = (token: string) => `${ACCESS_COOKIE}=${token}`;

/** Set-Cookie values that clear a cookie (empty value, expired). */
export function clearedCookieNames(res: LightMyRequestResponse): string[] {
  return res.cookies.filter((c) => c.value === '' && c.expires !== undefined && new Date(c.expires).getTime() <= Date.now()).map((c) => c.name);
}
