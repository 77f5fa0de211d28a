import { z } from 'zod';

/** Answers of the newsletter calls (the same for a new and an already subscribed address). */
export const NEWSLETTER_SUBSCRIBED = 'Thanks for subscribing! We sent a confirmation to your e-mail.';
export const NEWSLETTER_UNSUBSCRIBED = 'You have been unsubscribed from the newsletter.';
export const NEWSLETTER_BAD_TOKEN = 'This unsubscribe link is invalid.';

/** POST newsletter/subscribe. */
export const newsletterSubscribeBodySchema = z.object({
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .toLowerCase()
    .pipe(z.email('Please enter a valid email address').max(254, 'Please enter a valid email address')),
});
export type NewsletterSubscribeBody = z.infer<typeof newsletterSubscribeBodySchema>;

/** POST newsletter/unsubscribe: the token from the mail's link. */
export const newsletterUnsubscribeBodySchema = z.object({
  token: z.string({ error: NEWSLETTER_BAD_TOKEN }).min(1, NEWSLETTER_BAD_TOKEN).max(200, NEWSLETTER_BAD_TOKEN),
});
export type NewsletterUnsubscribeBody = z.infer<typeof newsletterUnsubscribeBodySchema>;
