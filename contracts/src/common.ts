import { z } from 'zod';

/** 24-character lowercase hex ids (time-ordered, ObjectId-like). */
export const idSchema = z.string().regex(/^[0-9a-f]{24}$/, 'Invalid id');

export const errorResponseSchema = z.object({
  message: z.string(),
  code: z.string().optional(),
  fieldErrors: z.record(z.string(), z.string()).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;
