import type { Mail } from '../../lib/mailer.ts';
import { escapeHtml } from '../users/account-mails.ts';

export const NEWSLETTER_MAIL_SUBJECT = 'You are subscribed to our newsletter';

/** The confirmation of a subscription, with the link that ends it. */
export function subscribedMail(to: string, unsubscribeLink: string): Mail {
  return {
    to,
    subject: NEWSLETTER_MAIL_SUBJECT,
    text: [
      'Hello,',
      '',
      'This address is now subscribed to our newsletter: deals, gifts and new arrivals, at most once a week.',
      '',
      `Did not ask for it, or changed your mind? Unsubscribe here: ${unsubscribeLink}`,
    ].join('\n'),
    html: [
      '<p>Hello,</p>',
      '<p>This address is now subscribed to our newsletter: deals, gifts and new arrivals, at most once a week.</p>',
      `<p>Did not ask for it, or changed your mind? <a href="${escapeHtml(unsubscribeLink)}">Unsubscribe</a></p>`,
    ].join('\n'),
  };
}
