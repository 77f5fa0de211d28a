import { ACCESS_TOKEN_EXPIRED, FORGOT_PASSWORD_MESSAGE, RESET_PASSWORD_SUCCESS, SIGNED_OUT_MESSAGE } from '@shop/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ACCESS_COOKIE, REFRESH_COOKIE, clearAuthCookies, requireUser, setAuthCookies } from '../../lib/auth.ts';
import { AppError } from '../../lib/errors.ts';
import { dummyPasswordHash } from '../../lib/passwords.ts';
import { enforceRateLimits } from '../../lib/rate-limit.ts';
import { hashToken } from '../../lib/tokens.ts';
import type { RequestMeta, SessionDeps } from './auth-deps.ts';
import { requestPasswordReset } from './forgot-password.ts';
import { isRefreshTokenLive, refreshSession } from './refresh-session.ts';
import { resetPassword } from './reset-password.ts';
import { signIn } from './sign-in.ts';
import { signOut } from './sign-out.ts';
import { signUp } from './sign-up.ts';
import { updateProfile } from './update-profile.ts';
import { presentUser } from './users.presenter.ts';
import {
  currentUserSchema, forgotPasswordSchema, refreshTokenSchema, resetPasswordSchema, signInSchema,
  signOutSchema, signUpSchema, updateProfileSchema,
} from './users.schemas.ts';

/** Accounts and sessions: sign-up/in/out, refresh, current user, profile, password recovery. */
export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const { config } = ctx;
  const sessionDeps: SessionDeps = { db: ctx.db, signer: ctx.signer, refreshTokenTtlDays: config.refreshTokenTtlDays };
  const cookieOptions = {
    accessTokenTtlSeconds: config.accessTokenTtlSeconds,
    refreshTokenTtlDays: config.refreshTokenTtlDays,
    cookieSecure: config.cookieSecure,
  };
  void dummyPasswordHash(); // computed once up front, so the first unknown-account sign-in is not slower

  /** Counts an attempt per IP and per subject (e-mail or token); throws 429 over the limit. */
  const limitAttempts = (request: FastifyRequest, reply: FastifyReply, action: string, subject: string) =>
    enforceRateLimits(ctx.rateLimiter, reply, [`auth:${action}:ip:${request.ip}`, `auth:${action}:subject:${subject}`], config.authRateLimit);
  const meta = (request: FastifyRequest): RequestMeta => ({ userAgent: request.headers['user-agent']?.slice(0, 512), ip: request.ip });

  app.post('/users/signup', { config: { access: 'public' }, schema: signUpSchema }, async (request, reply) => {
    await limitAttempts(request, reply, 'signup', request.body.email);
    const { user, tokens } = await signUp(sessionDeps, request.body, meta(request));
    setAuthCookies(reply, cookieOptions, tokens);
    return reply.status(201).send(presentUser(user));
  });

  app.post('/users/signin', { config: { access: 'public' }, schema: signInSchema }, async (request, reply) => {
    await limitAttempts(request, reply, 'signin', request.body.email);
    const { user, tokens } = await signIn(sessionDeps, request.body, meta(request));
    await ctx.rateLimiter.reset(`auth:signin:subject:${request.body.email}`); // the owner got in: stop counting against the account
    setAuthCookies(reply, cookieOptions, tokens);
    return presentUser(user);
  });

  app.post('/users/signout', { config: { access: 'public' }, schema: signOutSchema }, async (request, reply) => {
    await signOut(sessionDeps, { refreshToken: request.cookies[REFRESH_COOKIE], accessToken: request.cookies[ACCESS_COOKIE] });
    clearAuthCookies(reply, config.cookieSecure);
    return { message: SIGNED_OUT_MESSAGE };
  });

  app.post('/users/refresh-token', { config: { access: 'public' }, schema: refreshTokenSchema }, async (request, reply) => {
    try {
      const { user, tokens } = await refreshSession(sessionDeps, request.cookies[REFRESH_COOKIE]);
      setAuthCookies(reply, cookieOptions, tokens);
      return presentUser(user);
    } catch (err) {
      clearAuthCookies(reply, config.cookieSecure); // a dead session's cookies are of no further use
      throw err;
    }
  });

  app.get('/users/current', { config: { access: 'public', optionalUser: true }, schema: currentUserSchema }, async (request) => {
    if (request.user) return presentUser(request.user);
    // The access cookie lapsed but the session lives: ask the client to refresh rather than answer "signed out".
    if (await isRefreshTokenLive(ctx.db, request.cookies[REFRESH_COOKIE])) throw new AppError(401, ACCESS_TOKEN_EXPIRED, 'ACCESS_TOKEN_EXPIRED');
    return null;
  });

  app.put('/users/profile', { config: { access: 'user' }, schema: updateProfileSchema }, async (request) => {
    const user = await updateProfile(ctx.db, requireUser(request), request.body);
    return presentUser(user);
  });

  app.post('/users/forgot-password', { config: { access: 'public' }, schema: forgotPasswordSchema }, async (request, reply) => {
    await limitAttempts(request, reply, 'forgot', request.body.email);
    const baseUrl = config.publicUrl ?? `${request.protocol}://${request.host}`;
    await requestPasswordReset({ db: ctx.db, mailer: ctx.mailer }, request.body.email, baseUrl);
    return { message: FORGOT_PASSWORD_MESSAGE };
  });

  app.post('/users/reset-password', { config: { access: 'public' }, schema: resetPasswordSchema }, async (request, reply) => {
    await limitAttempts(request, reply, 'reset', hashToken(request.body.token));
    await resetPassword(ctx.db, request.body);
    return { message: RESET_PASSWORD_SUCCESS };
  });
};
