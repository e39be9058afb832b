import { lazy, Suspense, useRef, useState } from 'react';
import { Link, Navigate } from 'react-router';
import { displayNameOf } from '@shared/display-name.js';
import { profilePath } from '@shared/paths.js';
import type { RelationshipListItem } from '@shared/schemas/relationship.js';
import { Avatar } from '@web/components/ui/avatar.js';
import { EmberIcon } from '@web/components/ui/icons.js';
import { LoadErrorPanel } from '@web/components/ui/load-error-panel.js';
import { LoadMoreButton } from '@web/components/ui/load-more-button.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';
import { useAuth } from '@web/features/auth/auth-state.js';
import { decideSignedIn } from '@web/features/auth/guards.js';
import { useRelationshipList } from '@web/features/relationships/api/relationships.js';
import type { RelationshipDialogKind } from '@web/features/relationships/components/relationship-dialogs.js';
import { muteUntilLabel } from '@web/features/relationships/mute-durations.js';
import type { RelationshipListKind } from '@web/features/relationships/relationship-keys.js';
import { fullTimeLabel } from '@web/lib/relative-time.js';
import { usePageTitle } from '../hooks/use-page-title.js';

const RelationshipDialog = lazy(() =>
  import('@web/features/relationships/components/relationship-dialogs.js').then((module) => ({
    default: module.RelationshipDialog,
  })),
);

const sections: Record<
  RelationshipListKind,
  {
    title: string;
    empty: string;
    emptyTitle: string;
    action: RelationshipDialogKind;
    label: string;
  }
> = {
  blocks: {
    title: 'Blocked',
    emptyTitle: 'You haven’t blocked anyone',
    empty:
      'Block someone from the More menu on their profile, posts or comments: neither of you sees the other, and neither can follow, reply to or mention the other.',
    action: 'unblock',
    label: 'Unblock',
  },
  mutes: {
    title: 'Muted',
    emptyTitle: 'You haven’t muted anyone',
    empty:
      'Mute someone from the More menu on their profile, posts or comments: their posts and comments leave your feeds and threads, and they are not told.',
    action: 'unmute',
    label: 'Unmute',
  },
};

function ListSkeleton() {
  return (
    <div className="person-list" role="status" aria-label="Loading people">
      {[0, 1].map((row) => (
        <div key={row} className="person">
          <span className="avatar avatar--md skeleton" />
          <div className="person__names">
            <span className="skeleton skeleton--line skeleton--medium" />
            <span className="skeleton skeleton--line skeleton--short" />
          </div>
        </div>
      ))}
    </div>
  );
}

function PersonRow({
  person,
  kind,
  onAction,
}: {
  person: RelationshipListItem;
  kind: RelationshipListKind;
  onAction: (button: HTMLButtonElement) => void;
}) {
  const name = displayNameOf(person);
  const section = sections[kind];
  return (
    <li className="person">
      <Avatar user={person} alt="" size="md" />
      <div className="person__names">
        <Link className="person__name" to={profilePath(person)}>
          {name}
        </Link>
        {person.username ? <span className="person__username">@{person.username}</span> : null}
        <span className="person__meta">
          {kind === 'mutes'
            ? muteUntilLabel(person.expiresAt)
            : `Blocked ${fullTimeLabel(person.since)}`}
        </span>
      </div>
      <div className="person__action">
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={(event) => {
            onAction(event.currentTarget);
          }}
        >
          {section.label}
          <span className="visually-hidden"> {name}</span>
        </button>
      </div>
    </li>
  );
}

function PeopleSection({ viewerUid, kind }: { viewerUid: string; kind: RelationshipListKind }) {
  const list = useRelationshipList(viewerUid, kind);
  const section = sections[kind];
  const [open, setOpen] = useState<{ person: RelationshipListItem } | null>(null);
  const returnTo = useRef<HTMLButtonElement | null>(null);
  const headingId = `privacy-${kind}`;
  const people = list.data?.pages.flatMap((page) => page.items) ?? [];

  let body;
  if (list.isPending) body = <ListSkeleton />;
  else if (list.isError && people.length === 0) {
    body = (
      <LoadErrorPanel
        title={`We couldn’t load the people you ${kind === 'blocks' ? 'block' : 'mute'}`}
        headingLevel={2}
        error={list.error}
        onRetry={() => {
          void list.refetch();
        }}
      />
    );
  } else if (people.length === 0) {
    body = (
      <StatusPanel title={section.emptyTitle} headingLevel={3} icon={<EmberIcon />}>
        <p>{section.empty}</p>
      </StatusPanel>
    );
  } else {
    body = (
      <>
        <ul className="person-list" aria-labelledby={headingId}>
          {people.map((person) => (
            <PersonRow
              key={person.uid}
              person={person}
              kind={kind}
              onAction={(button) => {
                returnTo.current = button;
                setOpen({ person });
              }}
            />
          ))}
        </ul>
        {list.isFetchNextPageError ? (
          <p className="alert alert--error list-more__error" role="alert">
            We couldn’t load more people. {list.error.message}
          </p>
        ) : null}
        {list.hasNextPage ? (
          <div className="list-more">
            <LoadMoreButton
              busy={list.isFetchingNextPage}
              onLoad={() => {
                void list.fetchNextPage();
              }}
            />
          </div>
        ) : null}
      </>
    );
  }

  return (
    <section className="card settings-section privacy-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="privacy-section__title">
        {section.title}
      </h2>
      {body}
      {open ? (
        <Suspense fallback={null}>
          <RelationshipDialog
            kind={section.action}
            viewerUid={viewerUid}
            uid={open.person.uid}
            name={displayNameOf(open.person)}
            returnFocus={() =>
              returnTo.current?.isConnected ? returnTo.current : document.getElementById(headingId)
            }
            onClose={() => {
              setOpen(null);
            }}
          />
        </Suspense>
      ) : null}
    </section>
  );
}

/** /settings/privacy (issue: moderation and administration §2), signed-in only: blocks and mutes. */
export function PrivacySettingsPage() {
  const auth = useAuth();
  const decision = decideSignedIn(auth);
  usePageTitle('Privacy settings');
  if (decision !== 'allow' && decision !== 'loading') {
    return <Navigate to={decision.redirect} replace />;
  }
  const viewerUid = auth.user?.uid ?? null;
  return (
    <div className="page page--narrow settings-page privacy-settings-page">
      <header className="page__header">
        <Link className="back-link" to="/settings/account">
          <span aria-hidden="true">←</span> Account settings
        </Link>
        <h1>Privacy settings</h1>
        <p className="lede">
          The people you block or mute. Blocking works both ways: neither of you sees the other or
          can interact. Muting hides someone’s posts and comments from you alone, for a while or
          until you unmute them.
        </p>
      </header>
      {decision === 'loading' || viewerUid === null ? (
        <section className="card settings-section" aria-label="Loading">
          <ListSkeleton />
        </section>
      ) : (
        <>
          <PeopleSection viewerUid={viewerUid} kind="blocks" />
          <PeopleSection viewerUid={viewerUid} kind="mutes" />
        </>
      )}
    </div>
  );
}
