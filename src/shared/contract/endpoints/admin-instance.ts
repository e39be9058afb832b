import {
  auditPageSchema,
  auditQuerySchema,
  publicLogPageSchema,
  publicLogQuerySchema,
} from '../../schemas/audit.js';
import {
  instanceRuleInputSchema,
  instanceRulesSchema,
  instanceSettingsSchema,
  instanceSettingsUpdateSchema,
  ruleIdParamsSchema,
  ruleOrderSchema,
} from '../../schemas/instance.js';
import { defineEndpoint } from '../endpoint.js';

/**
 * The instance's settings and rules, the audit log, and the public moderation log (issue: moderation and
 * administration §4, "Instance" and "Audit log"; ADR 0021, ADR 0023).
 */
export const adminInstanceEndpoints = {
  listRules: defineEndpoint({
    id: 'listRules',
    method: 'GET',
    path: '/api/instance/rules',
    tag: 'Instance',
    summary: "The instance's rules, in order",
    description:
      'Shown at sign-up, in the report dialog and at /about/moderation. At most `max` rules; a report may name one.',
    access: 'public',
    status: 200,
    response: instanceRulesSchema,
  }),
  getInstanceSettings: defineEndpoint({
    id: 'getInstanceSettings',
    method: 'GET',
    path: '/api/admin/instance',
    tag: 'Administration',
    summary: "The instance's settings",
    description:
      'The registration mode in effect, the sign-up question, and whether the moderation log is public. Moderators may read them; only administrators change them.',
    access: 'moderator',
    status: 200,
    response: instanceSettingsSchema,
  }),
  updateInstanceSettings: defineEndpoint({
    id: 'updateInstanceSettings',
    method: 'PATCH',
    path: '/api/admin/instance',
    tag: 'Administration',
    summary: "Change the instance's settings",
    description:
      'Only the settings given change; an empty question is none. Takes effect at once for sign-ups and the public log, and is recorded in the audit log (`settings_changed`, with what changed).',
    access: 'admin',
    body: instanceSettingsUpdateSchema,
    status: 200,
    response: instanceSettingsSchema,
  }),
  createRule: defineEndpoint({
    id: 'createRule',
    method: 'POST',
    path: '/api/admin/instance/rules',
    tag: 'Administration',
    summary: 'Add a rule at the end',
    description:
      'Answers every rule in order. A 409 once the instance has the most rules it may. Recorded in the audit log (`rules_changed`).',
    access: 'admin',
    body: instanceRuleInputSchema,
    status: 201,
    response: instanceRulesSchema,
    errors: [409],
  }),
  updateRule: defineEndpoint({
    id: 'updateRule',
    method: 'PATCH',
    path: '/api/admin/instance/rules/{ruleId}',
    tag: 'Administration',
    summary: "Change a rule's wording",
    description:
      'Answers every rule in order. Reports that named the rule keep the wording they were made under. Recorded in the audit log.',
    access: 'admin',
    params: ruleIdParamsSchema,
    body: instanceRuleInputSchema,
    status: 200,
    response: instanceRulesSchema,
    errors: [404],
  }),
  deleteRule: defineEndpoint({
    id: 'deleteRule',
    method: 'DELETE',
    path: '/api/admin/instance/rules/{ruleId}',
    tag: 'Administration',
    summary: 'Delete a rule',
    description:
      'Answers the rules left, in order. Reports that named it still read: they keep its wording. Recorded in the audit log.',
    access: 'admin',
    params: ruleIdParamsSchema,
    status: 200,
    response: instanceRulesSchema,
    errors: [404],
  }),
  reorderRules: defineEndpoint({
    id: 'reorderRules',
    method: 'PUT',
    path: '/api/admin/instance/rules/order',
    tag: 'Administration',
    summary: 'Put the rules in a new order',
    description:
      "Every rule's id, once each. A 409 when the list does not match the rules as they are (another administrator changed them meanwhile). Recorded in the audit log.",
    access: 'admin',
    body: ruleOrderSchema,
    status: 200,
    response: instanceRulesSchema,
    errors: [409],
  }),
  listAuditLog: defineEndpoint({
    id: 'listAuditLog',
    method: 'GET',
    path: '/api/admin/audit',
    tag: 'Administration',
    summary: 'The audit log',
    description:
      'Every moderator and administrator action, newest first: who, what, to whom, about what, why, the private note and the details. Filter by `action`, by `actor` (a username as recorded, or `operator`) and by `target` (a username as recorded). `cursor` is the `id` of the last entry of the previous page.',
    access: 'moderator',
    query: auditQuerySchema,
    status: 200,
    response: auditPageSchema,
  }),
  listPublicModerationLog: defineEndpoint({
    id: 'listPublicModerationLog',
    method: 'GET',
    path: '/api/moderation-log',
    tag: 'Instance',
    summary: 'The public moderation log',
    description:
      "Only while an administrator publishes it (a 404 otherwise). Newest first: the action, the account's username as recorded, what kind of thing it was about, the reason and when. Never who acted or reported, private notes, details or removed words. `cursor` is the `id` of the last entry of the previous page.",
    access: 'public',
    query: publicLogQuerySchema,
    status: 200,
    response: publicLogPageSchema,
    errors: [404],
  }),
} as const;
