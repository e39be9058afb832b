import '@web/styles/admin-users.css';
import { useEffect, useId, useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import {
  adminUserSearchMax,
  adminUserStateSchema,
  adminUserStates,
} from '@shared/schemas/admin-user.js';
import { roleSchema } from '@shared/schemas/user.js';
import { roles } from '@shared/roles.js';
import { ListEnd } from '@web/components/ui/list-end.js';
import { LoadErrorPanel } from '@web/components/ui/load-error-panel.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';
import type { AdminUserFilters } from '@web/features/admin-users/admin-user-keys.js';
import { useAdminUsers } from '@web/features/admin-users/api/get-admin-users.js';
import { AdminUserList } from '@web/features/admin-users/components/admin-user-list.js';
import { roleLabels, stateLabels } from '@web/features/admin-users/labels.js';
import { useDebouncedValue } from '@web/features/search/hooks/use-debounced-value.js';
import { usePageTitle } from '../../hooks/use-page-title.js';

/** How long typing pauses before the list follows the search text. */
const typingPauseMs = 300;

/** The filters the address holds; anything unknown in it is ignored. */
function filtersOf(params: URLSearchParams): AdminUserFilters {
  const role = roleSchema.safeParse(params.get('role'));
  const state = adminUserStateSchema.safeParse(params.get('state'));
  return {
    q: (params.get('q') ?? '').slice(0, adminUserSearchMax),
    role: role.success ? role.data : '',
    state: state.success ? state.data : '',
  };
}

function ListSkeleton() {
  return (
    <div className="admin-user-skeleton" aria-busy="true">
      <p className="visually-hidden" role="status">
        Loading accounts…
      </p>
      {[0, 1, 2, 3].map((row) => (
        <div key={row} className="admin-user-skeleton__row" aria-hidden="true">
          <span className="skeleton skeleton--line skeleton--medium" />
          <span className="skeleton skeleton--line skeleton--short" />
        </div>
      ))}
    </div>
  );
}

function Results({ filters }: { filters: AdminUserFilters }) {
  const query = useAdminUsers(filters);
  if (query.isPending) return <ListSkeleton />;
  if (query.isError) {
    return (
      <LoadErrorPanel
        title="We couldn’t load the accounts"
        headingLevel={2}
        error={query.error}
        onRetry={() => {
          void query.refetch();
        }}
      />
    );
  }
  const rows = query.data.pages.flatMap((page) => page.items);
  if (rows.length === 0) {
    const filtered = Boolean(filters.q || filters.role || filters.state);
    return (
      <StatusPanel title={filtered ? 'No accounts match' : 'No accounts yet'} headingLevel={2}>
        <p>
          {filtered
            ? 'Try a shorter search, or clear the role and state filters.'
            : 'Accounts appear here as people sign up.'}
        </p>
      </StatusPanel>
    );
  }
  return (
    <>
      <AdminUserList rows={rows} />
      <ListEnd
        query={query}
        what="accounts"
        className="admin-users-page__more"
        done={<p className="list-end__done">That is every account that matches.</p>}
      />
    </>
  );
}

/** A sentence the detail page left in the navigation state, if any. */
function noticeOf(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('notice' in state)) return null;
  return typeof state.notice === 'string' ? state.notice : null;
}

/** /admin/users (issue: moderation and administration §4, "Users"): find an account. */
export function AdminUsersPage() {
  usePageTitle('Users');
  const id = useId();
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  // What the detail page did before coming back here (an account rejected or deleted).
  const state: unknown = location.state;
  const notice = noticeOf(state);
  const filters = filtersOf(params);
  const [text, setText] = useState(filters.q);
  const settled = useDebouncedValue(text.trim(), typingPauseMs);

  const setFilter = (key: keyof AdminUserFilters, value: string) => {
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  };

  // The settled text goes into the address once, when it settles (not when the address changes).
  const applied = useRef(settled);
  useEffect(() => {
    if (applied.current === settled) return;
    applied.current = settled;
    if (settled !== filters.q) setFilter('q', settled);
  });

  return (
    <div className="admin-users-page">
      <header className="page__header">
        <h1>Users</h1>
        <p className="lede">
          Find an account by name, username or email, and open it to act on it. Email addresses are
          shown to moderators and administrators only.
        </p>
      </header>
      <div role="status" className="form-alert-region">
        {notice ? <p className="alert alert--success">{notice}</p> : null}
      </div>
      <form
        className="admin-users-filters"
        role="search"
        aria-label="Accounts"
        onSubmit={(event) => {
          event.preventDefault();
          setFilter('q', text.trim());
        }}
      >
        <div className="field admin-users-filters__search">
          <label className="field__label" htmlFor={`${id}-q`}>
            Search
          </label>
          <input
            id={`${id}-q`}
            className="field__input"
            type="search"
            value={text}
            maxLength={adminUserSearchMax}
            placeholder="Name, username or email"
            autoComplete="off"
            onChange={(event) => {
              setText(event.target.value);
            }}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-role`}>
            Role
          </label>
          <select
            id={`${id}-role`}
            className="field__input"
            value={filters.role}
            onChange={(event) => {
              setFilter('role', event.target.value);
            }}
          >
            <option value="">Any role</option>
            {roles.map((role) => (
              <option key={role} value={role}>
                {roleLabels[role]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-state`}>
            State
          </label>
          <select
            id={`${id}-state`}
            className="field__input"
            value={filters.state}
            onChange={(event) => {
              setFilter('state', event.target.value);
            }}
          >
            <option value="">Any state</option>
            {adminUserStates.map((state) => (
              <option key={state} value={state}>
                {stateLabels[state]}
              </option>
            ))}
          </select>
        </div>
      </form>
      <section aria-label="Accounts" className="admin-users-page__results">
        <Results filters={filters} />
      </section>
    </div>
  );
}
