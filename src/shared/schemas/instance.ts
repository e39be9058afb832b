import { z } from 'zod';
import { idSchema } from './post.js';

export const registrationModeSchema = z.enum(['open', 'approval', 'closed']);
export type RegistrationMode = z.infer<typeof registrationModeSchema>;

/**
 * What administrators set in the console (issue: moderation and administration §4, "Instance"). The
 * registration mode starts as `REGISTRATION_MODE` until an administrator changes it.
 */
export const instanceSettingsSchema = z.object({
  registrationMode: registrationModeSchema,
  /** Asked at sign-up in approval mode; null: no question. */
  signupQuestion: z.string().nullable(),
  /** Whether /about/moderation publishes the moderation log. */
  publicModerationLog: z.boolean(),
});
export type InstanceSettings = z.infer<typeof instanceSettingsSchema>;

/** GET /api/instance: what the web app needs to know about this installation. */
export const instanceSchema = z.object({
  name: z.string(),
  contactEmail: z.string().nullable(),
  /** The registration mode in effect: an administrator's choice, else `REGISTRATION_MODE`. */
  registrationMode: registrationModeSchema,
  /** Asked at sign-up in approval mode; null: no question. */
  signupQuestion: z.string().nullable(),
  /** Whether /about/moderation publishes the moderation log. */
  publicModerationLog: z.boolean(),
  publicUrl: z.string(),
  /** The share of page loads whose performance the web app reports (0 to 1). */
  webVitalsSampleRate: z.number().min(0).max(1),
});
export type Instance = z.infer<typeof instanceSchema>;

/** Bounds of the instance's settings and rules (issue: moderation and administration §4, "Instance"). */
export const instanceLimits = {
  signupQuestion: 300,
  rules: 20,
  ruleText: 200,
  ruleDescription: 1_000,
} as const;

/** PATCH /api/admin/instance: only the settings given change; an empty or blank question is none. */
export const instanceSettingsUpdateSchema = z
  .object({
    registrationMode: registrationModeSchema.optional(),
    signupQuestion: z
      .string({ error: 'Write the question as text.' })
      .trim()
      .max(
        instanceLimits.signupQuestion,
        `Keep the question to ${instanceLimits.signupQuestion} characters.`,
      )
      .nullable()
      .optional()
      .transform((value) => (value === '' ? null : value)),
    publicModerationLog: z.boolean({ error: 'Choose on or off.' }).optional(),
  })
  .refine((changes) => Object.values(changes).some((value) => value !== undefined), {
    message: 'Change at least one setting.',
  });
export type InstanceSettingsUpdate = z.infer<typeof instanceSettingsUpdateSchema>;

/** One of the instance's rules, as shown at sign-up, in the report dialog and at /about/moderation. */
export const instanceRuleSchema = z.object({
  id: z.string(),
  text: z.string(),
  /** A longer explanation; null: none. */
  description: z.string().nullable(),
});
export type InstanceRule = z.infer<typeof instanceRuleSchema>;

/** The rules in their order; never more than `instanceLimits.rules`. */
export const instanceRulesSchema = z.object({
  rules: z.array(instanceRuleSchema),
  /** How many rules an instance may have. */
  max: z.number().int(),
});
export type InstanceRules = z.infer<typeof instanceRulesSchema>;

/** A new rule, or a rule's new wording. */
export const instanceRuleInputSchema = z.object({
  text: z
    .string({ error: 'Write the rule.' })
    .trim()
    .min(1, 'Write the rule.')
    .max(instanceLimits.ruleText, `Keep the rule to ${instanceLimits.ruleText} characters.`),
  description: z
    .string({ error: 'Write the explanation as text.' })
    .trim()
    .max(
      instanceLimits.ruleDescription,
      `Keep the explanation to ${instanceLimits.ruleDescription} characters.`,
    )
    .nullable()
    .optional()
    .transform((value) => (value ? value : null)),
});
export type InstanceRuleInput = z.input<typeof instanceRuleInputSchema>;

export const ruleIdParamsSchema = z.object({ ruleId: idSchema });

/** PUT /api/admin/instance/rules/order: every rule's id, once each, in the new order. */
export const ruleOrderSchema = z.object({
  ids: z
    .array(idSchema, { error: 'Give the rules in their new order.' })
    .max(instanceLimits.rules, `There are at most ${instanceLimits.rules} rules.`),
});
export type RuleOrder = z.infer<typeof ruleOrderSchema>;

export const legalDocumentSchema = z.object({
  title: z.string(),
  markdown: z.string(),
  updatedAt: z.string().nullable(),
});
export type LegalDocument = z.infer<typeof legalDocumentSchema>;
