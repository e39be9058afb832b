import { Link } from 'react-router';
import { LoadErrorPanel } from '@web/components/ui/load-error-panel.js';
import { useAuth } from '@web/features/auth/auth-state.js';
import { useRules } from '@web/features/instance/api/rules.js';
import { useInstanceSettings } from '@web/features/instance/api/settings.js';
import { InstanceSettingsForm } from '@web/features/instance/components/instance-settings-form.js';
import { RulesEditor } from '@web/features/instance/components/rules-editor.js';
import { usePageTitle } from '../../hooks/use-page-title.js';

function SectionSkeleton({ what }: { what: string }) {
  return (
    <div aria-busy="true">
      <p className="visually-hidden" role="status">
        Loading {what}…
      </p>
      {[0, 1, 2].map((row) => (
        <span key={row} className="skeleton skeleton--line" aria-hidden="true" />
      ))}
    </div>
  );
}

function SettingsSection({ readOnly }: { readOnly: boolean }) {
  const settings = useInstanceSettings();
  if (settings.isPending) return <SectionSkeleton what="the settings" />;
  if (settings.isError) {
    return (
      <LoadErrorPanel
        title="We couldn’t load the settings"
        headingLevel={2}
        error={settings.error}
        onRetry={() => {
          void settings.refetch();
        }}
      />
    );
  }
  return <InstanceSettingsForm initial={settings.data} readOnly={readOnly} />;
}

function RulesSection({ readOnly }: { readOnly: boolean }) {
  const rules = useRules();
  if (rules.isPending) return <SectionSkeleton what="the rules" />;
  if (rules.isError) {
    return (
      <LoadErrorPanel
        title="We couldn’t load the rules"
        headingLevel={2}
        error={rules.error}
        onRetry={() => {
          void rules.refetch();
        }}
      />
    );
  }
  return <RulesEditor rules={rules.data.rules} readOnly={readOnly} />;
}

/** /admin/instance: registration, the sign-up question, the public log and the rules (ADR 0023). */
export function AdminInstancePage() {
  usePageTitle('Instance settings');
  const auth = useAuth();
  // The console's layout admits moderators and administrators; only administrators change anything.
  const readOnly = auth.user?.role !== 'admin';
  return (
    <div className="admin-page admin-instance-page">
      <header className="page__header">
        <h1>Instance</h1>
        <p className="lede">
          Who can join, what they are asked, the rules everyone agrees to, and whether moderation is
          done in public.
        </p>
      </header>
      <section className="card settings-section" aria-labelledby="instance-settings-heading">
        <h2 id="instance-settings-heading" className="settings-section__title">
          Settings
        </h2>
        <SettingsSection readOnly={readOnly} />
      </section>
      <section className="card settings-section" aria-labelledby="instance-rules-editor-heading">
        <h2 id="instance-rules-editor-heading" className="settings-section__title">
          Rules
        </h2>
        <p className="settings-section__intro">
          Shown at sign-up, in the report dialog and on the public{' '}
          <Link to="/about/moderation">moderation page</Link>.
        </p>
        <RulesSection readOnly={readOnly} />
      </section>
    </div>
  );
}
