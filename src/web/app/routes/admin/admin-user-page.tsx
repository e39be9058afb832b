import '@web/styles/admin-users.css';
import { useId, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { displayNameOf } from '@shared/display-name.js';
import type { AdminUserDetail, AdminUserReport } from '@shared/schemas/admin-user.js';
import { suspensionDurations, type SuspensionDuration } from '@shared/schemas/report.js';
import { roles, type Role } from '@shared/roles.js';
import { Avatar } from '@web/components/ui/avatar.js';
import { LoadErrorPanel } from '@web/components/ui/load-error-panel.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';
import {
  useAdminUserAction,
  type AdminUserAction,
} from '@web/features/admin-users/api/admin-user-actions.js';
import { useAdminUser } from '@web/features/admin-users/api/get-admin-user.js';
import { ActionDialog } from '@web/components/ui/action-dialog.js';
import { NoteForm } from '@web/features/admin-users/components/note-form.js';
import { UserBadges } from '@web/features/admin-users/components/user-badges.js';
import { actionLabels, roleLabels } from '@web/features/admin-users/labels.js';
import { isApiError } from '@web/lib/api-client.js';
import { fullTimeLabel } from '@web/lib/relative-time.js';
import { usePageTitle } from '../../hooks/use-page-title.js';

const durationLabels: Record<SuspensionDuration, string> = {
  '1d': '1 day',
  '3d': '3 days',
  '7d': '7 days',
  '30d': '30 days',
  indefinite: 'Until lifted',
};

type DialogKind =
  | 'approve'
  | 'reject'
  | 'activate'
  | 'deactivate'
  | 'role'
  | 'sign-out'
  | 'reset-link'
  | 'delete'
  | 'warn'
  | 'suspend'
  | 'lift';

function When({ iso }: { iso: string }) {
  return <time dateTime={iso}>{fullTimeLabel(iso)}</time>;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="card admin-user-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

function ReportList({ reports, side }: { reports: AdminUserReport[]; side: 'against' | 'by' }) {
  if (reports.length === 0) return <p className="admin-user-empty">None.</p>;
  return (
    <ul className="admin-user-list">
      {reports.map((report) => (
        <li key={report.id}>
          <span className="badge admin-badge">
            {report.status === 'open' ? 'Open' : 'Resolved'}
          </span>{' '}
          {report.reason} · {report.targetKind}
          {report.otherUsername ? (
            <>
              {' '}
              {side === 'against' ? 'by' : 'about'} @{report.otherUsername}
            </>
          ) : null}
          {report.outcome ? <> · {report.outcome}</> : null} · <When iso={report.createdAt} />
          {report.comment ? <p className="admin-user-quote">{report.comment}</p> : null}
        </li>
      ))}
    </ul>
  );
}

function ActionsPanel({
  user,
  onOpen,
}: {
  user: AdminUserDetail;
  onOpen: (kind: DialogKind) => void;
}) {
  const { permissions } = user;
  const button = (kind: DialogKind, label: string, tone: 'secondary' | 'danger' = 'secondary') => (
    <button
      type="button"
      className={`button button--${tone}`}
      onClick={() => {
        onOpen(kind);
      }}
    >
      {label}
    </button>
  );
  if (!permissions.act) {
    return <p className="admin-user-empty">{permissions.reason}</p>;
  }
  return (
    <>
      <div className="admin-user-actions">
        {user.awaitingApproval ? (
          <>
            {button('approve', 'Approve sign-up')}
            {button('reject', 'Reject sign-up', 'danger')}
          </>
        ) : user.active ? (
          button('deactivate', 'Deactivate')
        ) : (
          button('activate', 'Activate')
        )}
        {!user.awaitingApproval ? button('warn', 'Warn') : null}
        {!user.awaitingApproval
          ? user.suspended
            ? button('lift', 'Lift suspension')
            : button('suspend', 'Suspend', 'danger')
          : null}
        {button('sign-out', 'Sign out everywhere')}
        {button('reset-link', 'Send password-reset link')}
        {permissions.changeRole ? button('role', 'Change role') : null}
        {permissions.delete ? button('delete', 'Delete account', 'danger') : null}
      </div>
      {permissions.adminReason ? (
        <p className="admin-user-hint">{permissions.adminReason}</p>
      ) : null}
    </>
  );
}

function RoleField({ value, onChange }: { value: Role; onChange: (role: Role) => void }) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        New role
      </label>
      <select
        id={id}
        className="field__input"
        value={value}
        onChange={(event) => {
          const next = roles.find((role) => role === event.target.value);
          if (next) onChange(next);
        }}
      >
        {roles.map((role) => (
          <option key={role} value={role}>
            {roleLabels[role]}
          </option>
        ))}
      </select>
    </div>
  );
}

function DurationField({
  value,
  onChange,
}: {
  value: SuspensionDuration;
  onChange: (duration: SuspensionDuration) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        For how long
      </label>
      <select
        id={id}
        className="field__input"
        value={value}
        onChange={(event) => {
          const next = suspensionDurations.find((duration) => duration === event.target.value);
          if (next) onChange(next);
        }}
      >
        {suspensionDurations.map((duration) => (
          <option key={duration} value={duration}>
            {durationLabels[duration]}
          </option>
        ))}
      </select>
    </div>
  );
}

const successMessages: Record<DialogKind, string> = {
  approve: 'Sign-up approved. They have been emailed.',
  reject: 'Sign-up rejected and the account deleted.',
  activate: 'Account activated.',
  deactivate: 'Account deactivated and signed out everywhere.',
  role: 'Role changed.',
  'sign-out': 'Signed out everywhere.',
  'reset-link': 'A password-reset link is on its way to their address.',
  delete: 'Account deleted.',
  warn: 'Warning sent.',
  suspend: 'Account suspended.',
  lift: 'Suspension lifted.',
};

function UserDetail({ user }: { user: AdminUserDetail }) {
  const navigate = useNavigate();
  const action = useAdminUserAction(user.uid);
  const [dialog, setDialog] = useState<DialogKind | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [role, setRole] = useState<Role>(user.role === 'user' ? 'moderator' : 'user');
  const [duration, setDuration] = useState<SuspensionDuration>('3d');
  const name = displayNameOf(user);
  const handle = `@${user.username ?? ''}`;

  const run = async (kind: DialogKind, reason: string) => {
    const request: AdminUserAction =
      kind === 'role'
        ? { kind, role, reason: reason || undefined }
        : kind === 'suspend'
          ? { kind, reason, duration }
          : kind === 'reject' || kind === 'delete' || kind === 'warn' || kind === 'lift'
            ? { kind, reason }
            : kind === 'activate' || kind === 'deactivate'
              ? { kind, reason: reason || undefined }
              : { kind };
    await action.mutateAsync(request);
    setDialog(null);
    if (kind === 'reject' || kind === 'delete') {
      void navigate('/admin/users', { state: { notice: successMessages[kind] } });
      return;
    }
    setDone(successMessages[kind]);
  };

  const dialogs: Record<
    DialogKind,
    {
      title: string;
      body: ReactNode;
      confirm: string;
      busy: string;
      reason: 'sent' | 'logged' | 'optional' | 'none';
      tone?: 'primary' | 'danger';
      extra?: ReactNode;
    }
  > = {
    approve: {
      title: `Approve ${handle}?`,
      body: <p>They can post and interact at once, and get an email saying so.</p>,
      confirm: 'Approve',
      busy: 'Approving…',
      reason: 'none',
    },
    reject: {
      title: `Reject ${handle}?`,
      body: <p>They get an email with your reason, and the account is deleted.</p>,
      confirm: 'Reject and delete',
      busy: 'Rejecting…',
      reason: 'sent',
      tone: 'danger',
    },
    activate: {
      title: `Activate ${handle}?`,
      body: <p>They can post and interact again.</p>,
      confirm: 'Activate',
      busy: 'Activating…',
      reason: 'optional',
    },
    deactivate: {
      title: `Deactivate ${handle}?`,
      body: <p>They are signed out everywhere and can browse but not post until activated.</p>,
      confirm: 'Deactivate',
      busy: 'Deactivating…',
      reason: 'optional',
      tone: 'danger',
    },
    role: {
      title: `Change the role of ${handle}`,
      body: <p>Moderators handle reports and content; administrators also run the instance.</p>,
      confirm: 'Change role',
      busy: 'Changing…',
      reason: 'optional',
      extra: <RoleField value={role} onChange={setRole} />,
    },
    'sign-out': {
      title: `Sign ${handle} out everywhere?`,
      body: <p>Every device they use is signed out at once.</p>,
      confirm: 'Sign out everywhere',
      busy: 'Signing out…',
      reason: 'none',
    },
    'reset-link': {
      title: `Send ${handle} a password-reset link?`,
      body: <p>The link goes to their own address and works once, for one hour.</p>,
      confirm: 'Send link',
      busy: 'Sending…',
      reason: 'none',
    },
    delete: {
      title: `Delete ${handle} and everything they made?`,
      body: (
        <p>
          Their posts, comments, likes, follows and images are deleted for good. This cannot be
          undone.
        </p>
      ),
      confirm: 'Delete account',
      busy: 'Deleting…',
      reason: 'logged',
      tone: 'danger',
    },
    warn: {
      title: `Warn ${handle}`,
      body: <p>They get a notification and an email with your reason.</p>,
      confirm: 'Send warning',
      busy: 'Sending…',
      reason: 'sent',
    },
    suspend: {
      title: `Suspend ${handle}`,
      body: <p>They can still read and appeal, but not post or interact.</p>,
      confirm: 'Suspend',
      busy: 'Suspending…',
      reason: 'sent',
      tone: 'danger',
      extra: <DurationField value={duration} onChange={setDuration} />,
    },
    lift: {
      title: `Lift the suspension of ${handle}?`,
      body: <p>They can post and interact again at once.</p>,
      confirm: 'Lift suspension',
      busy: 'Lifting…',
      reason: 'sent',
    },
  };
  const open = dialog ? dialogs[dialog] : null;

  return (
    <div className="admin-user-page">
      <Link className="back-link" to="/admin/users">
        <span aria-hidden="true">←</span> Users
      </Link>
      <header className="admin-user-header">
        <Avatar user={user} alt="" size="lg" />
        <div>
          <h1>{name}</h1>
          <p className="admin-user-header__meta">
            <Link to={`/@${user.username ?? ''}`}>{handle}</Link> · {user.email}
          </p>
          <UserBadges role={user.role} state={user.state} />
          <p className="admin-user-header__meta">
            Joined <When iso={user.createdAt} />
            {user.lastActiveAt ? (
              <>
                {' '}
                · last active <When iso={user.lastActiveAt} />
              </>
            ) : null}
          </p>
        </div>
      </header>
      <div role="status" className="form-alert-region">
        {done ? <p className="alert alert--success">{done}</p> : null}
      </div>

      {user.suspension ? (
        <p className="alert alert--info">
          Suspended since <When iso={user.suspension.since} />
          {user.suspension.until ? (
            <>
              {' '}
              until <When iso={user.suspension.until} />
            </>
          ) : (
            ' until lifted'
          )}
          . Reason: {user.suspension.reason}
        </p>
      ) : null}

      <Section title="Actions">
        <ActionsPanel
          user={user}
          onOpen={(kind) => {
            setDone(null);
            setDialog(kind);
          }}
        />
      </Section>

      {user.awaitingApproval || user.signupAnswer ? (
        <Section title="Sign-up answer">
          {user.signupAnswer ? (
            <p className="admin-user-quote">{user.signupAnswer}</p>
          ) : (
            <p className="admin-user-empty">No answer was asked for.</p>
          )}
        </Section>
      ) : null}

      <Section title="Recent posts">
        {user.recentPosts.length === 0 ? (
          <p className="admin-user-empty">No posts.</p>
        ) : (
          <ul className="admin-user-list">
            {user.recentPosts.map((post) => (
              <li key={post.id}>
                <Link to={`/posts/${post.id}`}>
                  <When iso={post.createdAt} />
                </Link>
                {post.removedAt ? (
                  <span className="badge admin-badge admin-badge--suspended">
                    Removed{post.removalReason ? `: ${post.removalReason}` : ''}
                  </span>
                ) : null}
                <p className="admin-user-quote">{post.body}</p>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section title="Reports">
        <h3>
          Against them: {user.reportsAgainst.total} ({user.reportsAgainst.open} open)
        </h3>
        <ReportList reports={user.reportsAgainst.recent} side="against" />
        <h3>By them: {user.reportsBy.total}</h3>
        <ReportList reports={user.reportsBy.recent} side="by" />
      </Section>

      <Section title="Moderation history">
        {user.history.length === 0 ? (
          <p className="admin-user-empty">Nothing yet.</p>
        ) : (
          <ul className="admin-user-list">
            {user.history.map((entry) => (
              <li key={entry.id}>
                <strong>{actionLabels[entry.action]}</strong> by {entry.actorName} ·{' '}
                <When iso={entry.createdAt} />
                {entry.reason ? <p className="admin-user-quote">{entry.reason}</p> : null}
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section title="Moderation notes">
        {user.notes.length === 0 ? (
          <p className="admin-user-empty">No notes yet.</p>
        ) : (
          <ul className="admin-user-list">
            {user.notes.map((note) => (
              <li key={note.id}>
                {note.authorName} · <When iso={note.createdAt} />
                <p className="admin-user-quote">{note.body}</p>
              </li>
            ))}
          </ul>
        )}
        {user.permissions.act ? (
          <NoteForm
            onAdd={async (body) => {
              await action.mutateAsync({ kind: 'note', body });
            }}
          />
        ) : null}
      </Section>

      {open && dialog ? (
        <ActionDialog
          key={dialog}
          title={open.title}
          confirmLabel={open.confirm}
          busyLabel={open.busy}
          reason={open.reason}
          tone={open.tone}
          extra={open.extra}
          onConfirm={(reason) => run(dialog, reason)}
          onClose={() => {
            setDialog(null);
          }}
        >
          {open.body}
        </ActionDialog>
      ) : null}
    </div>
  );
}

/** /admin/users/:uid: one account, what has happened to it, and what staff may do. */
export function AdminUserPage() {
  const { uid = '' } = useParams();
  const query = useAdminUser(uid);
  usePageTitle(query.data ? `${displayNameOf(query.data)} · Users` : 'Users');
  if (query.isPending) {
    return (
      <div className="admin-user-page" aria-busy="true">
        <p className="visually-hidden" role="status">
          Loading the account…
        </p>
        <span className="skeleton skeleton--title" aria-hidden="true" />
        <span className="skeleton skeleton--line skeleton--medium" aria-hidden="true" />
      </div>
    );
  }
  if (query.isError) {
    if (isApiError(query.error, 'not_found')) {
      return (
        <StatusPanel title="There is no such account" headingLevel={1}>
          <p>
            It may have been deleted. <Link to="/admin/users">Back to users</Link>
          </p>
        </StatusPanel>
      );
    }
    return (
      <LoadErrorPanel
        title="We couldn’t load this account"
        error={query.error}
        onRetry={() => {
          void query.refetch();
        }}
      />
    );
  }
  return <UserDetail key={query.data.uid} user={query.data} />;
}
