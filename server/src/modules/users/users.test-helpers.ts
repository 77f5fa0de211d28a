import { desc, eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { outbox } from '../../db/schema.ts';
import { ACCESS_COOKIE, REFRESH_COOKIE } from '../../lib/auth.ts';
import { openMail } from '../../lib/mailer.ts';
import type { TestApp } from '../../test/test-app.ts';

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

/** The newest mail sent to `to` (the outbox), after the background work behind the last request. */
export async function latestMailTo(t: TestApp, to: string) {
  await t.app.ctx.background.flush();
  const [mail] = await t.database.db.select().from(outbox).where(eq(outbox.to, to.toLowerCase())).orderBy(desc(outbox.createdAt), desc(outbox.id)).limit(1);
  return mail && openMail(mail, t.app.ctx.mailSealer); // bodies are sealed at rest
}

/** The token of the first `/path?token=...` link in a mail text. */
export function tokenFromLink(text: string, pathname: string): string {
  const m = new RegExp(`${pathname}\\?token=([\\w%-]+)`).exec(text);
  if (!m?.[1]) throw new Error(`no ${pathname} link in: ${text}`);
  return decodeURIComponent(m[1]);
}

/** Signs up through the API as a browser would: POST signup, the mailed link, POST confirm-signup (signed in). */
export async function signUpAndConfirm(t: TestApp, body: { name: string; email: string; password: string }, inject: Partial<InjectOptions> = {}) {
  const res = await t.app.inject({ method: 'POST', url: '/api/users/signup', payload: body, ...inject });
  if (res.statusCode !== 202) throw new Error(`sign-up answered ${res.statusCode}: ${res.body}`);
  const mail = await latestMailTo(t, body.email);
  if (!mail) throw new Error(`no mail to ${body.email}`);
  const token = tokenFromLink(mail.text, '/confirm-signup');
  return t.app.inject({ method: 'POST', url: '/api/users/confirm-signup', payload: { token }, ...inject });
}
