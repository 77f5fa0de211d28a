import { EMAIL_CHANGE_TOKEN_TTL_HOURS, SIGNUP_TOKEN_TTL_HOURS } from '@shop/contracts';
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

export const CONFIRM_EMAIL_CHANGE_SUBJECT = 'Confirm your new e-mail address';
export const EMAIL_CHANGE_NOTICE_SUBJECT = 'Your account e-mail is being changed';
export const EMAIL_CHANGED_BY_ADMIN_SUBJECT = 'Your account e-mail was changed';

/** To the new address of an account: the single-use link that makes it the account's e-mail. */
export function confirmEmailChangeMail(to: string, name: string, link: string): Mail {
  const expiry = `The link works once and expires in ${EMAIL_CHANGE_TOKEN_TTL_HOURS} hours. Until you open it, your account keeps its current e-mail address and you sign in with that one.`;
  return {
    to,
    subject: CONFIRM_EMAIL_CHANGE_SUBJECT,
    text: [
      `Hello ${name},`,
      '',
      'You asked to use this e-mail address for your account. Open this link to confirm it:',
      link,
      '',
      expiry,
      'If you did not ask for this, ignore this e-mail: nothing changes without it.',
    ].join('\n'),
    html: [
      `<p>Hello ${escapeHtml(name)},</p>`,
      '<p>You asked to use this e-mail address for your account.</p>',
      `<p><a href="${escapeHtml(link)}">Confirm my new e-mail address</a></p>`,
      `<p>${escapeHtml(expiry)}</p>`,
      '<p>If you did not ask for this, ignore this e-mail: nothing changes without it.</p>',
    ].join('\n'),
  };
}

/**
 * To the current address when a change to `newEmail` was asked for from the profile: nothing has
 * changed yet, and a password-reset link (valid as long as the change's link) secures the account:
 * a new password ends every session and cancels the change.
 */
export function emailChangeNoticeMail(to: string, name: string, newEmail: string, resetLink: string): Mail {
  return {
    to,
    subject: EMAIL_CHANGE_NOTICE_SUBJECT,
    text: [
      `Hello ${name},`,
      '',
      `Someone signed in to your account asked to change its e-mail address to ${newEmail}.`,
      `Nothing changes until that address confirms it (within ${EMAIL_CHANGE_TOKEN_TTL_HOURS} hours); until then you sign in with this address.`,
      '',
      'If this was you, there is nothing to do.',
      'If it was not you, secure your account now: choose a new password with this link. It signs out every device and cancels the change:',
      resetLink,
      '',
      `The link works once and expires in ${EMAIL_CHANGE_TOKEN_TTL_HOURS} hours, or when the new address is confirmed.`,
    ].join('\n'),
    html: [
      `<p>Hello ${escapeHtml(name)},</p>`,
      `<p>Someone signed in to your account asked to change its e-mail address to <strong>${escapeHtml(newEmail)}</strong>.</p>`,
      `<p>Nothing changes until that address confirms it (within ${EMAIL_CHANGE_TOKEN_TTL_HOURS} hours); until then you sign in with this address.</p>`,
      '<p>If this was you, there is nothing to do.</p>',
      '<p>If it was not you, secure your account now: choose a new password. It signs out every device and cancels the change.</p>',
      `<p><a href="${escapeHtml(resetLink)}">Secure my account</a></p>`,
      `<p>The link works once and expires in ${EMAIL_CHANGE_TOKEN_TTL_HOURS} hours, or when the new address is confirmed.</p>`,
    ].join('\n'),
  };
}

/** To the former address when an administrator changed the account's e-mail (Admin → Users). */
export function emailChangedByAdminMail(to: string, name: string, newEmail: string, baseUrl: string): Mail {
  const contact = `${baseUrl}/pages/contact`;
  return {
    to,
    subject: EMAIL_CHANGED_BY_ADMIN_SUBJECT,
    text: [
      `Hello ${name},`,
      '',
      `The shop's staff changed the e-mail address of your account to ${newEmail}. From now on you sign in with that address, and mail about your account and orders goes there.`,
      '',
      `If you did not ask for this, contact us at once: ${contact}`,
    ].join('\n'),
    html: [
      `<p>Hello ${escapeHtml(name)},</p>`,
      `<p>The shop's staff changed the e-mail address of your account to <strong>${escapeHtml(newEmail)}</strong>. From now on you sign in with that address, and mail about your account and orders goes there.</p>`,
      `<p>If you did not ask for this, <a href="${escapeHtml(contact)}">contact us</a> at once.</p>`,
    ].join('\n'),
  };
}
