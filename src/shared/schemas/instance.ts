import { z } from 'zod';

export const registrationModeSchema = z.enum(['open', 'approval', 'closed']);
export type RegistrationMode = z.infer<typeof registrationModeSchema>;

/** GET /api/instance: what the web app needs to know about this installation. */
export const instanceSchema = z.object({
  name: z.string(),
  contactEmail: z.string().nullable(),
  registrationMode: registrationModeSchema,
  publicUrl: z.string(),
});
export type Instance = z.infer<typeof instanceSchema>;

export const legalDocumentSchema = z.object({
  title: z.string(),
  markdown: z.string(),
  updatedAt: z.string().nullable(),
});
export type LegalDocument = z.infer<typeof legalDocumentSchema>;
