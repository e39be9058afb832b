import {
  instanceLimits,
  type InstanceRules,
  type InstanceSettings,
  type InstanceSettingsUpdate,
} from '../../../shared/schemas/instance.js';
import { Conflict, NotFound } from '../../errors.js';
import type { Viewer } from '../../plugins/viewer.js';
import type { AuditActor, AuditLogRepository } from '../moderation/audit-log.repository.js';
import type { InstanceRulesRepository, RuleText } from './instance-rules.repository.js';
import type { InstanceSettingsService } from './instance-settings.service.js';

/** Finds the `@username` an action is recorded under. */
export type ActorLookup = (uid: string) => Promise<{ username: string | null } | null>;

/** The longest excerpt of a rule an audit entry keeps. */
const excerptLength = 120;

function excerpt(text: string): string {
  return text.length > excerptLength ? `${text.slice(0, excerptLength - 1)}…` : text;
}

/**
 * The instance's settings and rules as administrators change them (issue: moderation and administration §4,
 * "Instance"; ADR 0023). The routes let only active administrators change them and moderators read them;
 * every change is recorded in the audit log.
 */
export class InstanceAdminService {
  constructor(
    private readonly settings: InstanceSettingsService,
    private readonly rules: InstanceRulesRepository,
    private readonly audit: AuditLogRepository,
    private readonly lookup: ActorLookup,
  ) {}

  current(): Promise<InstanceSettings> {
    return this.settings.current();
  }

  async listRules(): Promise<InstanceRules> {
    return { rules: await this.rules.list(), max: instanceLimits.rules };
  }

  /** Saves what changed and records it, with each setting's value before and after. */
  async updateSettings(viewer: Viewer, changes: InstanceSettingsUpdate): Promise<InstanceSettings> {
    const before = await this.settings.current();
    const changed: Partial<InstanceSettings> = {};
    const details: Record<string, { from: unknown; to: unknown }> = {};
    for (const key of ['registrationMode', 'signupQuestion', 'publicModerationLog'] as const) {
      const value = changes[key];
      if (value === undefined || value === before[key]) continue;
      Object.assign(changed, { [key]: value });
      details[key] = { from: before[key], to: value };
    }
    if (Object.keys(changed).length === 0) return before;
    const after = await this.settings.update(changed);
    await this.audit.record({
      actor: await this.actor(viewer),
      action: 'settings_changed',
      details,
    });
    return after;
  }

  async createRule(viewer: Viewer, input: RuleText): Promise<InstanceRules> {
    const actor = await this.actor(viewer);
    const id = await this.rules.create(input, instanceLimits.rules, (ruleId) => ({
      actor,
      action: 'rules_changed',
      subject: { kind: 'rule', id: ruleId, excerpt: excerpt(input.text) },
      details: { change: 'added', text: input.text, description: input.description },
    }));
    if (id === null) {
      throw new Conflict(
        `An instance has at most ${instanceLimits.rules} rules. Delete or merge one first.`,
      );
    }
    return this.listRules();
  }

  async updateRule(viewer: Viewer, ruleId: string, input: RuleText): Promise<InstanceRules> {
    const before = await this.requireRule(ruleId);
    const changed = await this.rules.update(ruleId, input, {
      actor: await this.actor(viewer),
      action: 'rules_changed',
      subject: { kind: 'rule', id: ruleId, excerpt: excerpt(input.text) },
      details: {
        change: 'edited',
        from: { text: before.text, description: before.description },
        to: { text: input.text, description: input.description },
      },
    });
    if (!changed) throw new NotFound('That rule no longer exists.');
    return this.listRules();
  }

  async deleteRule(viewer: Viewer, ruleId: string): Promise<InstanceRules> {
    const before = await this.requireRule(ruleId);
    const deleted = await this.rules.delete(ruleId, {
      actor: await this.actor(viewer),
      action: 'rules_changed',
      subject: { kind: 'rule', id: ruleId, excerpt: excerpt(before.text) },
      details: { change: 'deleted', text: before.text, description: before.description },
    });
    if (!deleted) throw new NotFound('That rule no longer exists.');
    return this.listRules();
  }

  async reorderRules(viewer: Viewer, ids: readonly string[]): Promise<InstanceRules> {
    const before = await this.rules.list();
    if (before.length === ids.length && before.every((rule, index) => rule.id === ids[index])) {
      return { rules: before, max: instanceLimits.rules };
    }
    const reordered = await this.rules.reorder(ids, {
      actor: await this.actor(viewer),
      action: 'rules_changed',
      details: { change: 'reordered', from: before.map((rule) => rule.id), to: ids },
    });
    if (!reordered) {
      throw new Conflict('The rules changed meanwhile. Reload them and try again.', {
        ids: 'Give every rule once.',
      });
    }
    return this.listRules();
  }

  private async requireRule(ruleId: string) {
    const rule = await this.rules.find(ruleId);
    if (!rule) throw new NotFound('That rule no longer exists.');
    return rule;
  }

  private async actor(viewer: Viewer): Promise<AuditActor> {
    const found = await this.lookup(viewer.uid);
    return { uid: viewer.uid, name: found?.username ? `@${found.username}` : 'a former member' };
  }
}
