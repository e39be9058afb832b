import { instanceSettingsSchema, type InstanceSettings } from '../../../shared/schemas/instance.js';
import type { Config } from '../../config.js';
import type { InstanceSettingsRepository } from './instance-settings.repository.js';

/** How long an instance trusts its copy of the settings; another instance's change shows within this. */
const cacheMs = 5_000;

/**
 * The instance's settings (ADR 0021): stored values over the defaults, with `REGISTRATION_MODE` as the
 * registration mode's default. Read often (every sign-up, every instance description), so kept for a few
 * seconds; this instance's own changes apply at once.
 */
export class InstanceSettingsService {
  private cached: { value: InstanceSettings; until: number } | undefined;
  private pending: Promise<InstanceSettings> | undefined;

  constructor(
    private readonly repository: InstanceSettingsRepository,
    private readonly config: Pick<Config, 'registrationMode'>,
  ) {}

  defaults(): InstanceSettings {
    return {
      registrationMode: this.config.registrationMode,
      signupQuestion: null,
      publicModerationLog: false,
    };
  }

  async current(): Promise<InstanceSettings> {
    if (this.cached && this.cached.until > Date.now()) return this.cached.value;
    this.pending ??= this.load().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** Saves the given settings and answers them all as they now are. */
  async update(changes: Partial<InstanceSettings>): Promise<InstanceSettings> {
    for (const [key, value] of Object.entries(changes)) await this.repository.set(key, value);
    this.cached = undefined;
    return this.current();
  }

  private async load(): Promise<InstanceSettings> {
    const stored = await this.repository.all();
    const defaults = this.defaults();
    const merged: Record<string, unknown> = { ...defaults };
    for (const key of Object.keys(defaults)) {
      if (stored.has(key)) merged[key] = stored.get(key);
    }
    const parsed = instanceSettingsSchema.safeParse(merged);
    const value = parsed.success ? parsed.data : defaults;
    this.cached = { value, until: Date.now() + cacheMs };
    return value;
  }
}
