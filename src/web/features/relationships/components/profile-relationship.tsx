import { lazy, Suspense, useRef, useState, type ReactNode } from 'react';
import { AlertIcon } from '@web/components/ui/icons.js';
import { MoreMenu } from '@web/components/ui/more-menu.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';
import { ContentMenuSlot } from '@web/lib/content-menu.js';
import { onDemand } from '@web/lib/on-demand.js';
import { useFullRelationship } from '../api/get-full-relationship.js';

const loadDialogs = onDemand(() => import('./relationship-dialogs.js'));
const RelationshipDialog = lazy(() =>
  loadDialogs().then((module) => ({ default: module.RelationshipDialog })),
);

interface ProfilePerson {
  uid: string;
  name: string;
}

/**
 * The More menu beside a profile's Follow button: the entries the app adds for profiles (Mute, Block,
 * Report…). Nothing is drawn when no entry applies (one's own profile, signed out).
 */
export function ProfileMoreMenu({ person }: { person: ProfilePerson }) {
  const more = useRef<HTMLButtonElement>(null);
  return (
    <ContentMenuSlot
      target={{ kind: 'profile', id: person.uid, author: person }}
      returnFocus={() => more.current}
    >
      {(extra) =>
        extra.length === 0 ? null : (
          <MoreMenu triggerRef={more} triggerClassName="post__more profile__more" actions={extra} />
        )
      }
    </ContentMenuSlot>
  );
}

interface GateProps {
  viewerUid: string | null;
  person: ProfilePerson;
  children: ReactNode;
}

/** Shows `children` (the Follow button) unless the viewer and the person block each other. */
export function UnlessBlocked({ viewerUid, person, children }: GateProps) {
  const relationship = useFullRelationship(viewerUid, person.uid);
  if (relationship.data?.blocking || relationship.data?.blockedBy) return null;
  return children;
}

/**
 * A profile's posts, or, between people who block each other, why they are not shown (ADR 0022): "You
 * blocked …" with a way to unblock, or "unavailable" when the person blocks the viewer.
 */
export function ProfileBlockGate({ viewerUid, person, children }: GateProps) {
  const relationship = useFullRelationship(viewerUid, person.uid);
  const [unblocking, setUnblocking] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  if (viewerUid === null || viewerUid === person.uid) return children;
  if (relationship.isPending) {
    return <div className="profile-gate__pending" role="status" aria-label="Loading posts" />;
  }
  if (relationship.data?.blocking) {
    return (
      <>
        <StatusPanel
          title={`You blocked ${person.name}`}
          icon={<AlertIcon />}
          actions={
            <button
              ref={button}
              type="button"
              className="button button--secondary"
              onClick={() => {
                setUnblocking(true);
              }}
            >
              Unblock
            </button>
          }
        >
          <p>
            You don’t see each other’s posts or comments, and neither of you can follow or reply to
            the other.
          </p>
        </StatusPanel>
        {unblocking ? (
          <Suspense fallback={null}>
            <RelationshipDialog
              kind="unblock"
              viewerUid={viewerUid}
              uid={person.uid}
              name={person.name}
              returnFocus={() => button.current}
              onClose={() => {
                setUnblocking(false);
              }}
            />
          </Suspense>
        ) : null}
      </>
    );
  }
  if (relationship.data?.blockedBy) {
    return (
      <StatusPanel title={`${person.name}’s posts are unavailable`} icon={<AlertIcon />}>
        <p>You can’t see their posts or comments, or follow or reply to them.</p>
      </StatusPanel>
    );
  }
  return children;
}
