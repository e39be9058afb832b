import { z } from 'zod';
import { normaliseMultiline } from '../text.js';
import { textRuleError, type TextRule } from '../text-rules.js';

/**
 * A multiline text, normalised and held to a shared rule of text-rules.ts (the one the web app's forms
 * check without zod). `missing` is said of a value that is not text at all.
 */
export function ruledTextSchema(rule: TextRule, missing?: string) {
  return z
    .string(missing === undefined ? undefined : { error: missing })
    .transform(normaliseMultiline)
    .superRefine((value, context) => {
      const problem = textRuleError(value, rule);
      if (problem !== null) context.addIssue({ code: 'custom', message: problem });
    });
}
