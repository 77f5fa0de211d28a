import {
  confirmEmailChangeBodySchema, confirmEmailChangeResponseSchema, confirmSignUpBodySchema, currentUserResponseSchema,
  errorResponseSchema, forgotPasswordBodySchema, messageResponseSchema, resetPasswordBodySchema, signInBodySchema,
  signUpBodySchema, updateProfileBodySchema, updateProfileResponseSchema, userSchema,
} from '@shop/contracts';
import { z } from 'zod';

const tags = ['users'];
const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, errorResponseSchema]));
const cookieAuth = [{ cookieAuth: [] }];

export const signUpSchema = {
  tags,
  summary: 'Start creating an account: mails a confirmation link',
  description:
    'Answers 202 with the same message whether or not the address has an account, before looking it up. A new address ' +
    'gets a single-use confirmation link (valid 24 hours); an address with an account gets a "you already have an ' +
    'account" mail with sign-in and forgot-password links. Rate limited per IP and per e-mail.',
  body: signUpBodySchema,
  response: { 202: messageResponseSchema, ...errors(400, 403, 429) },
};

export const confirmSignUpSchema = {
  tags,
  summary: 'Create the account from the mailed confirmation link and sign in',
  description: 'Spends the token, creates the customer account and sets the HTTP-only access and refresh cookies. 409 if the address got an account meanwhile. Rate limited per IP.',
  body: confirmSignUpBodySchema,
  response: { 201: userSchema, ...errors(400, 403, 409, 429) },
};

export const signInSchema = {
  tags,
  summary: 'Sign in with e-mail and password',
  description: 'Sets the HTTP-only access and refresh cookies. Limited per client, per client and account, and per account under attack (see the README, "Sign-in protection").',
  body: signInBodySchema,
  response: { 200: userSchema, ...errors(400, 401, 403, 429) },
};

export const signOutSchema = {
  tags,
  summary: 'Sign out: revoke the session server-side and clear the cookies',
  response: { 200: messageResponseSchema, ...errors(403) },
};

export const refreshTokenSchema = {
  tags,
  summary: 'Rotate the refresh token and issue a new access token',
  description:
    'The refresh cookie is single-use; presenting a used one revokes the whole session, except the one the latest rotation ' +
    'spent, within a few seconds (another tab refreshing at the same moment): 200 with only a message, no cookies and nothing about the account.',
  response: { 200: z.union([userSchema, messageResponseSchema]), ...errors(401, 403) },
};

export const currentUserSchema = {
  tags,
  summary: 'The signed-in user, or null',
  description: 'Answers 401 (code ACCESS_TOKEN_EXPIRED) when the access cookie has lapsed but the refresh cookie is live: refresh, then ask again.',
  response: { 200: currentUserResponseSchema, ...errors(401) },
};

export const updateProfileSchema = {
  tags,
  summary: "Update the signed-in user's name and password, and ask for a new e-mail",
  description:
    'An empty or missing password keeps the current one; a new password signs out the other sessions. Changing the ' +
    'e-mail or the password requires currentPassword (400 when missing, 401 when wrong). A new e-mail is not set at ' +
    'once: the new address gets a confirmation link (valid 24 hours; POST users/confirm-email), the current address a ' +
    'notice with a link to secure the account, and the answer carries pendingEmail; until the link is used the account ' +
    'keeps, and signs in with, its current e-mail. Changes of e-mail are rate limited per account.',
  security: cookieAuth,
  body: updateProfileBodySchema,
  response: { 200: updateProfileResponseSchema, ...errors(400, 401, 403, 409, 429) },
};

export const confirmEmailChangeSchema = {
  tags,
  summary: 'Confirm a new e-mail address from the link mailed to it',
  description:
    'Spends the token and makes the new address the account\'s e-mail. 400 for a link that is unknown ' +
    '(EMAIL_CHANGE_INVALID), used (EMAIL_CHANGE_USED), replaced by a newer change or voided by a password reset ' +
    '(EMAIL_CHANGE_CANCELLED) or expired (EMAIL_CHANGE_EXPIRED); 409 (EMAIL_CHANGE_TAKEN) when another account took the ' +
    'address meanwhile, nothing changed. Rate limited per IP.',
  body: confirmEmailChangeBodySchema,
  response: { 200: confirmEmailChangeResponseSchema, ...errors(400, 403, 409, 429) },
};

export const forgotPasswordSchema = {
  tags,
  summary: 'Send a password reset link',
  description: 'Answers the same, before looking the address up, whether or not the account exists. The link is single-use and valid for one hour.',
  body: forgotPasswordBodySchema,
  response: { 200: messageResponseSchema, ...errors(400, 403, 429) },
};

export const resetPasswordSchema = {
  tags,
  summary: 'Set a new password from a reset link',
  description: 'Spends the token and signs out every session of the account.',
  body: resetPasswordBodySchema,
  response: { 200: messageResponseSchema, ...errors(400, 403, 429) },
};
