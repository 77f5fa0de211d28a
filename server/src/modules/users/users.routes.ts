import {
  ACCESS_TOKEN_EXPIRED, EMAIL_CHANGE_CONFIRMED, FORGOT_PASSWORD_MESSAGE, RESET_PASSWORD_SUCCESS, SESSION_REFRESHED_ELSEWHERE, SIGNED_OUT_MESSAGE,
  SIGNUP_CHECK_EMAIL,
} from '@shop/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ACCESS_COOKIE, REFRESH_COOKIE, clearAuthCookies, requireUser, setAuthCookies } from '../../lib/auth.ts';
import { AppError } from '../../lib/errors.ts';
import { dummyPasswordHash } from '../../lib/passwords.ts';
import { enforceRateLimits } from '../../lib/rate-limit.ts';
import { hashToken } from '../../lib/tokens.ts';
import { endGuestChat } from '../chat/index.ts';
import type { RequestMeta, SessionDeps } from './auth-deps.ts';
import { registerAuthCleanup } from './cleanup-expired.ts';
import { confirmSignUp } from './confirm-sign-up.ts';
import { requestPasswordReset } from './forgot-password.ts';
import { isRefreshTokenLive, refreshSession } from './refresh-session.ts';
import { resetPassword } from './reset-password.ts';
import { createSignInGuard } from './sign-in-guard.ts';
import { signIn } from './sign-in.ts';
import { signOut } from './sign-out.ts';
import { requestSignUp } from './sign-up.ts';
import { changesCredentials, changesEmail, currentPasswordIncorrect, updateProfile } from './update-profile.ts';
import { confirmEmailChange } from './confirm-email-change.ts';
import { presentUser } from './users.presenter.ts';
import {
  confirmEmailChangeSchema, confirmSignUpSchema, currentUserSchema, forgotPasswordSchema, refreshTokenSchema, resetPasswordSchema, signInSchema,
  signOutSchema, signUpSchema, updateProfileSchema,
} from './users.schemas.ts';

/**
 * Public routes whose answers are the caller's own (their profile, their session's cookies):
 * Cache-Control: private, no-store (lib/private-answers.ts).
 */
const personal = { access: 'public', private: true } as const;

/** Accounts and sessions: sign-up/in/out, refresh, current user, profile, password recovery. */
export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const { config } = ctx;
  registerAuthCleanup(ctx.jobs, ctx.db, config.cleanupEveryMs);
  const sessionDeps: SessionDeps = {
    db: ctx.db, signer: ctx.signer, refreshTokenTtlDays: config.refreshTokenTtlDays,
    onSessionsEnded: (userId) => ctx.recheckChatSockets(userId),
  };
  const cookieOptions = {
    accessTokenTtlSeconds: config.accessTokenTtlSeconds,
    refreshTokenTtlDays: config.refreshTokenTtlDays,
    cookieSecure: config.cookieSecure,
  };
  void dummyPasswordHash(); // computed once up front, so the first unknown-account sign-in is not slower

  const signInGuard = createSignInGuard({ limiter: ctx.rateLimiter, limit: config.authRateLimit });
  /** Counts an attempt per IP and per subject (e-mail or token); throws 429 over the limit. */
  const limitAttempts = (request: FastifyRequest, reply: FastifyReply, action: string, subject: string) =>
    enforceRateLimits(ctx.rateLimiter, reply, [`auth:${action}:ip:${request.ip}`, `auth:${action}:subject:${subject}`], config.authRateLimit);
  const meta = (request: FastifyRequest): RequestMeta => ({ userAgent: request.headers['user-agent']?.slice(0, 512), ip: request.ip });
  /** Where links in mails point: config.siteUrl (PUBLIC_URL, else localhost outside production), never the request's Host. */
  const baseUrl = config.siteUrl;

  // Sign-up and forgot-password answer before looking the address up: the same status, body and
  // time whether or not an account exists. The lookup and the mail happen after the answer.
  // The database is asked first whether it answers at all: during an outage the visitor gets the
  // outage's 503 (the same for every address, so it tells nothing about accounts) instead of a
  // "check your e-mail" for a request that the background work could not store.
  app.post('/users/signup', { config: { access: 'public' }, schema: signUpSchema }, async (request, reply) => {
    await limitAttempts(request, reply, 'signup', request.body.email);
    const body = request.body;
    await ctx.database.ping();
    ctx.background.run('sign-up', () => requestSignUp({ db: ctx.db, mailer: ctx.mailer }, body, baseUrl));
    return reply.status(202).send({ message: SIGNUP_CHECK_EMAIL });
  });

  app.post('/users/confirm-signup', { config: personal, schema: confirmSignUpSchema }, async (request, reply) => {
    await limitAttempts(request, reply, 'confirm-signup', hashToken(request.body.token));
    const { user, tokens } = await confirmSignUp(sessionDeps, request.body.token, meta(request));
    setAuthCookies(reply, cookieOptions, tokens);
    await endGuestChat(ctx, app.log, request, reply); // the chat continues as the account, not the guest
    return reply.status(201).send(presentUser(user));
  });

  app.post('/users/signin', { config: personal, schema: signInSchema }, async (request, reply) => {
    const { email } = request.body;
    await signInGuard.beforeAttempt(reply, request.ip, email);
    let result;
    try {
      result = await signIn(sessionDeps, request.body, meta(request));
    } catch (err) {
      if (err instanceof AppError && err.statusCode === 401) await signInGuard.onFailure(request.ip, email);
      throw err;
    }
    await signInGuard.onSuccess(request.ip, email);
    setAuthCookies(reply, cookieOptions, result.tokens);
    await endGuestChat(ctx, app.log, request, reply); // the chat continues as the account, not the guest
    return presentUser(result.user);
  });

  app.post('/users/signout', { config: personal, schema: signOutSchema }, async (request, reply) => {
    await signOut(sessionDeps, { refreshToken: request.cookies[REFRESH_COOKIE], accessToken: request.cookies[ACCESS_COOKIE] });
    clearAuthCookies(reply, config.cookieSecure);
    return { message: SIGNED_OUT_MESSAGE };
  });

  app.post('/users/refresh-token', { config: personal, schema: refreshTokenSchema }, async (request, reply) => {
    try {
      const refreshed = await refreshSession(sessionDeps, request.cookies[REFRESH_COOKIE]);
      // Another tab just rotated this token and its browser already holds the new cookies: nothing
      // is issued, and nothing about the account is told to whoever replays the token.
      if (!refreshed.tokens) return { message: SESSION_REFRESHED_ELSEWHERE };
      setAuthCookies(reply, cookieOptions, refreshed.tokens);
      return presentUser(refreshed.user);
    } catch (err) {
      clearAuthCookies(reply, config.cookieSecure); // a dead session's cookies are of no further use
      throw err;
    }
  });

  app.get('/users/current', { config: { ...personal, optionalUser: true }, schema: currentUserSchema }, async (request) => {
    if (request.user) return presentUser(request.user);
    // The access cookie lapsed but the session lives: ask the client to refresh rather than answer "signed out".
    if (await isRefreshTokenLive(ctx.db, request.cookies[REFRESH_COOKIE])) throw new AppError(401, ACCESS_TOKEN_EXPIRED, 'ACCESS_TOKEN_EXPIRED');
    return null;
  });

  app.put('/users/profile', { config: { access: 'user' }, schema: updateProfileSchema }, async (request, reply) => {
    const current = requireUser(request);
    // A stolen session must not become a way to guess the password: wrong current passwords are
    // limited per account like sign-in attempts.
    const guessKey = `auth:profile-password:user:${current.id}`;
    const checksPassword = changesCredentials(current, request.body) && !!request.body.currentPassword;
    if (checksPassword) await enforceRateLimits(ctx.rateLimiter, reply, [guessKey], config.authRateLimit);
    // Each change of e-mail mails two addresses, one of them any address at all: limited per account.
    if (changesEmail(current, request.body)) await enforceRateLimits(ctx.rateLimiter, reply, [`auth:email-change:user:${current.id}`], config.authRateLimit);
    try {
      const { user, pendingEmail } = await updateProfile({ db: ctx.db, mailer: ctx.mailer, siteUrl: config.siteUrl }, current, request.body);
      // A new password ended the account's other sessions: their chat sockets close too.
      if (request.body.password) ctx.recheckChatSockets(current.id);
      if (checksPassword) await ctx.rateLimiter.reset(guessKey);
      return { ...presentUser(user), ...(pendingEmail ? { pendingEmail } : {}) };
    } catch (err) {
      if (checksPassword && !(err instanceof AppError && err.code === currentPasswordIncorrect().code)) await ctx.rateLimiter.reset(guessKey);
      throw err;
    }
  });

  // The link mailed to a new address (PUT users/profile): anyone holding it may use it, signed in or
  // not, in any browser; it tells nothing of the account but the address it confirms.
  app.post('/users/confirm-email', { config: personal, schema: confirmEmailChangeSchema }, async (request, reply) => {
    await limitAttempts(request, reply, 'confirm-email', hashToken(request.body.token));
    const { email } = await confirmEmailChange(ctx.db, request.body.token);
    return { message: EMAIL_CHANGE_CONFIRMED, email };
  });

  app.post('/users/forgot-password', { config: { access: 'public' }, schema: forgotPasswordSchema }, async (request, reply) => {
    await limitAttempts(request, reply, 'forgot', request.body.email);
    const { email } = request.body;
    await ctx.database.ping();
    ctx.background.run('forgot-password', () => requestPasswordReset({ db: ctx.db, mailer: ctx.mailer }, email, baseUrl));
    return { message: FORGOT_PASSWORD_MESSAGE };
  });

  app.post('/users/reset-password', { config: { access: 'public' }, schema: resetPasswordSchema }, async (request, reply) => {
    await limitAttempts(request, reply, 'reset', hashToken(request.body.token));
    const { email, userId } = await resetPassword(ctx.db, request.body);
    ctx.recheckChatSockets(userId); // every session ended, chat sockets included
    await signInGuard.clearAccount(email); // the owner proved access to the mailbox
    return { message: RESET_PASSWORD_SUCCESS };
  });
};
