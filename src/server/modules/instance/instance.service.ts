import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Instance, LegalDocument } from '../../../shared/schemas/instance.js';
import type { Config } from '../../config.js';
import type { InstanceSettingsService } from './instance-settings.service.js';
import { legalTemplates, type LegalDocumentName } from './legal-templates.js';

/** Facts about this installation and its legal documents. */
export class InstanceService {
  constructor(
    private readonly config: Config,
    private readonly settings: Pick<InstanceSettingsService, 'current'>,
  ) {}

  /** The registration mode, sign-up question and public log as an administrator set them (ADR 0023). */
  async describe(): Promise<Instance> {
    const settings = await this.settings.current();
    return {
      name: this.config.instanceName,
      contactEmail: this.config.contactEmail ?? null,
      registrationMode: settings.registrationMode,
      signupQuestion: settings.signupQuestion,
      publicModerationLog: settings.publicModerationLog,
      publicUrl: this.config.publicUrl,
      webVitalsSampleRate: this.config.webVitalsSampleRate,
    };
  }

  /** The operator's `DATA_DIR/<name>.md` when present, else the default text with this instance's details. */
  async legalDocument(name: LegalDocumentName): Promise<LegalDocument> {
    const template = legalTemplates[name];
    const file = path.join(this.config.dataDir, `${name}.md`);
    try {
      const [markdown, info] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
      const heading = /^#\s+(.+)$/m.exec(markdown)?.[1]?.trim();
      return { title: heading ?? template.title, markdown, updatedAt: info.mtime.toISOString() };
    } catch {
      const contact = this.config.contactEmail
        ? `[${this.config.contactEmail}](mailto:${this.config.contactEmail})`
        : 'the administrators of this site';
      const markdown = template.markdown
        .replaceAll('{{instance}}', () => this.config.instanceName)
        .replaceAll('{{contact}}', () => contact)
        .replaceAll('{{url}}', () => this.config.publicUrl);
      return { title: template.title, markdown, updatedAt: null };
    }
  }
}
