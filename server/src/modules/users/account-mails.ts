import { SIGNUP_TOKEN_TTL_HOURS } from '@shop/contracts';
import type { Mail } from '../../lib/mailer.ts';

export const CONFIRM_SIGNUP_SUBJECT = 'Confirm your e-mail to create your account';
export const ALREADY_REGISTERED_SUBJECT = 'You already have an account';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The mail to a new address: the single-use link that creates the account. */
export function confirmSignUpMail(to: string, name: string, link: string): Mail {
  return {
    to,
    subject: CONFIRM_SIGNUP_SUBJECT,
    text: [
      `Hello ${name},`,
      '',
      'Open this link to confirm your e-mail address and create your account:',
      link,
      '',
      `The link works once and expires in ${SIGNUP_TOKEN_TTL_HOURS} hours. If you did not sign up, ignore this e-mail: no account is created without it.`,
    ].join('\n'),
    html: [
      `<p>Hello ${escapeHtml(name)},</p>`,
      '<p>Confirm your e-mail address to create your account:</p>',
      `<p><a href="${escapeHtml(link)}">Create my account</a></p>`,
      `<p>The link works once and expires in ${SIGNUP_TOKEN_TTL_HOURS} hours. If you did not sign up, ignore this e-mail: no account is created without it.</p>`,
    ].join('\n'),
  };
}

/** The mail to an address that already has an account: no second account, but the ways back in. */
export function alreadyRegisteredMail(to: string, name: string, baseUrl: string): Mail {
  const signIn = `${baseUrl}/signin`;
  const forgot = `${baseUrl}/forgot-password`;
  return {
    to,
    subject: ALREADY_REGISTERED_SUBJECT,
    text: [
      `Hello ${name},`,
      '',
      'Someone (hopefully you) tried to create an account with this e-mail address, but you already have one.',
      `Sign in: ${signIn}`,
      `Forgot your password? Choose a new one: ${forgot}`,
      '',
      'If it was not you, ignore this e-mail: nothing has changed.',
    ].join('\n'),
    html: [
      `<p>Hello ${escapeHtml(name)},</p>`,
      '<p>Someone (hopefully you) tried to create an account with this e-mail address, but you already have one.</p>',
      `<p><a href="${escapeHtml(signIn)}">Sign in</a> &middot; <a href="${escapeHtml(forgot)}">Forgot your password?</a></p>`,
      '<p>If it was not you, ignore this e-mail: nothing has changed.</p>',
    ].join('\n'),
  };
}
