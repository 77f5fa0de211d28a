import { z } from 'zod';
import { wholeNumberParam } from './number-fields.ts';

/** The development mailbox (issue 23): outside production, without SMTP_URL, the mail the shop kept. */
export const DEV_MAILBOX_PATH = '/dev/mailbox';
export const DEV_MAILBOX_LINK_TEXT = 'Open the development mailbox';
export const DEV_MAILBOX_MAX_LIMIT = 200;

export const devMailboxQuerySchema = z.object({
  limit: wholeNumberParam({ fallback: 50, min: 1, max: DEV_MAILBOX_MAX_LIMIT, message: `Limit must be a whole number from 1 to ${DEV_MAILBOX_MAX_LIMIT}` }),
});

export const devMailboxMessageSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  /** The body as plain text ('' once erased: sent, or its link expired). */
  text: z.string(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  erased: z.boolean(),
});

export const devMailboxResponseSchema = z.object({
  messages: z.array(devMailboxMessageSchema),
});

export type DevMailboxMessage = z.infer<typeof devMailboxMessageSchema>;
export type DevMailboxResponse = z.infer<typeof devMailboxResponseSchema>;
