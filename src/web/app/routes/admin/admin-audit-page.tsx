import { useId, useState, type SubmitEvent } from 'react';
import { useSearchParams } from 'react-router';
import { moderationActions, type ModerationAction } from '@shared/schemas/moderation.js';
import { ListEnd } from '@web/components/ui/list-end.js';
import { LoadErrorPanel } from '@web/components/ui/load-error-panel.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';
import { useAuditLog, type AuditFilters } from '@web/features/instance/api/moderation-logs.js';
import { AuditEntryItem } from '@web/features/instance/components/audit-entry.js';
import { moderationActionLabels } from '@web/features/instance/moderation-action-labels.js';
import { useNow } from '@web/lib/use-now.js';
import { usePageTitle } from '../../hooks/use-page-title.js';

function isAction(value: string | null): value is ModerationAction {
  return value !== null && (moderationActions as readonly string[]).includes(value);
}

function filtersFrom(params: URLSearchParams): AuditFilters {
  const action = params.get('action');
  const actor = params.get('actor')?.trim().replace(/^@/, '') ?? '';
  const target = params.get('target')?.trim().replace(/^@/, '') ?? '';
  return {
    action: isAction(action) ? action : undefined,
    actor: actor === '' ? undefined : actor.toLowerCase(),
    target: target === '' ? undefined : target.toLowerCase(),
  };
}

function FilterForm({
  filters,
  onApply,
}: {
  filters: AuditFilters;
  onApply: (next: AuditFilters) => void;
}) {
  const id = useId();
  const [action, setAction] = useState<string>(filters.action ?? '');
  const [actor, setActor] = useState(filters.actor ?? '');
  const [target, setTarget] = useState(filters.target ?? '');
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    onApply({
      action: isAction(action) ? action : undefined,
      actor: actor.trim() || undefined,
      target: target.trim() || undefined,
    });
  };
  const filtered = Boolean(filters.action ?? filters.actor ?? filters.target);
  return (
    <form className="audit-filters" onSubmit={submit} aria-label="Filter the audit log">
      <div className="field">
        <label className="field__label" htmlFor={`${id}-action`}>
          Action
        </label>
        <select
          id={`${id}-action`}
          className="field__input"
          value={action}
          onChange={(event) => {
            setAction(event.target.value);
          }}
        >
          <option value="">Every action</option>
          {moderationActions.map((kind) => (
            <option key={kind} value={kind}>
              {moderationActionLabels[kind]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-actor`}>
          By
        </label>
        <input
          id={`${id}-actor`}
          className="field__input"
          placeholder="@moderator or operator"
          value={actor}
          autoComplete="off"
          onChange={(event) => {
            setActor(event.target.value);
          }}
        />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-target`}>
          To
        </label>
        <input
          id={`${id}-target`}
          className="field__input"
          placeholder="@username"
          value={target}
          autoComplete="off"
          onChange={(event) => {
            setTarget(event.target.value);
          }}
        />
      </div>
      <div className="audit-filters__actions">
        <button type="submit" className="button button--primary">
          Filter
        </button>
        {filtered ? (
          <button
            type="button"
            className="button button--secondary"
            onClick={() => {
              setAction('');
              setActor('');
              setTarget('');
              onApply({});
            }}
          >
            Clear filters
          </button>
        ) : null}
      </div>
    </form>
  );
}

function AuditList({ filters }: { filters: AuditFilters }) {
  const log = useAuditLog(filters);
  const now = useNow();
  if (log.isPending) {
    return (
      <div aria-busy="true">
        <p className="visually-hidden" role="status">
          Loading the audit log…
        </p>
        {[0, 1, 2].map((row) => (
          <div key={row} className="audit-entry" aria-hidden="true">
            <span className="skeleton skeleton--line skeleton--medium" />
            <span className="skeleton skeleton--line skeleton--short" />
          </div>
        ))}
      </div>
    );
  }
  if (log.isError) {
    return (
      <LoadErrorPanel
        title="We couldn’t load the audit log"
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
    const filtered = Boolean(filters.action ?? filters.actor ?? filters.target);
    return (
      <StatusPanel
        title={filtered ? 'Nothing matches these filters' : 'Nothing recorded yet'}
        headingLevel={2}
      >
        <p>
          {filtered
            ? 'Try another action or name, or clear the filters.'
            : 'Every action moderators and administrators take will be listed here.'}
        </p>
      </StatusPanel>
    );
  }
  return (
    <>
      <ol className="audit-log" aria-label="Audit log entries">
        {entries.map((entry) => (
          <AuditEntryItem key={entry.id} entry={entry} now={now} />
        ))}
      </ol>
      <ListEnd query={log} what="entries" done={<p className="muted">That is the whole log.</p>} />
    </>
  );
}

/** /admin/audit: every moderator and administrator action, newest first (ADR 0021). */
export function AdminAuditPage() {
  usePageTitle('Audit log');
  const [params, setParams] = useSearchParams();
  const filters = filtersFrom(params);
  const key = JSON.stringify(filters);
  return (
    <div className="admin-page admin-audit-page">
      <header className="page__header">
        <h1>Audit log</h1>
        <p className="lede">
          Who did what, to whom, why and when. Private notes are for moderators and administrators
          only.
        </p>
      </header>
      <FilterForm
        key={key}
        filters={filters}
        onApply={(next) => {
          const search = new URLSearchParams();
          if (next.action) search.set('action', next.action);
          if (next.actor) search.set('actor', next.actor);
          if (next.target) search.set('target', next.target);
          setParams(search);
        }}
      />
      <AuditList filters={filters} />
    </div>
  );
}
