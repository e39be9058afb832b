import { Link } from 'react-router';
import { ListEnd } from '@web/components/ui/list-end.js';
import { LoadErrorPanel } from '@web/components/ui/load-error-panel.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';
import { useInstance } from '@web/features/instance/api/get-instance.js';
import { usePublicLog } from '@web/features/instance/api/moderation-logs.js';
import { useRules } from '@web/features/instance/api/rules.js';
import { PublicLogEntryItem } from '@web/features/instance/components/audit-entry.js';
import { RulesList } from '@web/features/instance/components/rules-list.js';
import { ApiError } from '@web/lib/api-client.js';
import { useNow } from '@web/lib/use-now.js';
import { usePageTitle } from '../hooks/use-page-title.js';

function Loading({ what }: { what: string }) {
  return (
    <div aria-busy="true">
      <p className="visually-hidden" role="status">
        Loading {what}…
      </p>
      {[0, 1].map((row) => (
        <span key={row} className="skeleton skeleton--line" aria-hidden="true" />
      ))}
    </div>
  );
}

function Rules() {
  const rules = useRules();
  if (rules.isPending) return <Loading what="the rules" />;
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
  if (rules.data.rules.length === 0) {
    return <p className="muted">This instance has not written any rules yet.</p>;
  }
  return <RulesList rules={rules.data.rules} />;
}

function NotPublished() {
  return (
    <StatusPanel title="The moderation log is not published" headingLevel={3}>
      <p>
        The administrators of this instance keep their moderation log private. The rules above still
        apply to everyone.
      </p>
    </StatusPanel>
  );
}

function PublicLog({ published }: { published: boolean }) {
  const log = usePublicLog({ enabled: published });
  const now = useNow();
  if (!published) return <NotPublished />;
  if (log.isPending) return <Loading what="the moderation log" />;
  if (log.isError) {
    // Unpublished since the page opened.
    if (log.error instanceof ApiError && log.error.status === 404) return <NotPublished />;
    return (
      <LoadErrorPanel
        title="We couldn’t load the moderation log"
        headingLevel={2}
        error={log.error}
        onRetry={() => {
          void log.refetch();
        }}
      />
    );
  }
  const entries = log.data.pages.flatMap((page) => page.items);
  if (entries.length === 0) {
    return (
      <StatusPanel title="Nothing to show yet" headingLevel={3}>
        <p>When moderators act on posts or accounts, what they did and why will be listed here.</p>
      </StatusPanel>
    );
  }
  return (
    <>
      <ol className="audit-log" aria-label="Moderation actions">
        {entries.map((entry) => (
          <PublicLogEntryItem key={entry.id} entry={entry} now={now} />
        ))}
      </ol>
      <ListEnd query={log} what="actions" done={null} />
    </>
  );
}

/**
 * /about/moderation, public: the instance's rules and, when its administrators publish it, what moderators
 * did and why, without reporters, moderators' names, notes or removed words (ADR 0023).
 */
export function ModerationLogPage() {
  usePageTitle('Moderation');
  const instance = useInstance();
  const name = instance.data?.name ?? 'this instance';
  return (
    <div className="page page--narrow moderation-log-page">
      <header className="page__header">
        <h1>How {name} is moderated</h1>
        <p className="lede">
          The rules everyone here agrees to, and how moderators enforce them. See also the{' '}
          <Link to="/tos">Terms of Service</Link>.
        </p>
      </header>
      <section className="card settings-section" aria-labelledby="moderation-rules-heading">
        <h2 id="moderation-rules-heading" className="settings-section__title">
          Rules
        </h2>
        <Rules />
      </section>
      <section className="card settings-section" aria-labelledby="moderation-log-heading">
        <h2 id="moderation-log-heading" className="settings-section__title">
          Moderation log
        </h2>
        {instance.isPending ? (
          <Loading what="the moderation log" />
        ) : instance.isError ? (
          <LoadErrorPanel
            title="We couldn’t load the moderation log"
            headingLevel={2}
            error={instance.error}
            onRetry={() => {
              void instance.refetch();
            }}
          />
        ) : (
          <PublicLog published={instance.data.publicModerationLog} />
        )}
      </section>
    </div>
  );
}
