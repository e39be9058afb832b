import { lazy, Suspense, useState, type ReactNode } from 'react';
import type { MenuAction } from '@web/components/ui/more-menu.js';
import type { ContentMenuTarget } from '@web/lib/content-menu.js';
import { onDemand, preload } from '@web/lib/on-demand.js';
import { useFullRelationship } from '../api/get-full-relationship.js';
import type { RelationshipDialogKind } from './relationship-dialogs.js';

// The dialogs and the contract's schemas arrive when someone blocks or mutes, not with every page.
const loadDialogs = onDemand(() => import('./relationship-dialogs.js'));
const RelationshipDialog = lazy(() =>
  loadDialogs().then((module) => ({ default: module.RelationshipDialog })),
);

/** Who is looking, as far as blocking goes: undefined while the session loads, null when signed out. */
export type RelationshipViewer =
  { uid: string; active: boolean; suspended?: boolean } | null | undefined;

interface RelationshipMenuEntryProps {
  target: ContentMenuTarget;
  viewer: RelationshipViewer;
  returnFocus: () => HTMLElement | null;
  children: (extra: readonly MenuAction[]) => ReactNode;
}

/**
 * The More menu's Mute and Block entries (issue: moderation and administration §2) on other people's
 * posts, comments and profiles, for active accounts. A profile knows whether its person is blocked or
 * muted, so it offers Unblock and Unmute instead.
 */
export function RelationshipMenuEntry(props: RelationshipMenuEntryProps) {
  const { viewer, target } = props;
  if (!viewer?.active || viewer.suspended || viewer.uid === target.author.uid) {
    return props.children([]);
  }
  // Only a profile asks how the two relate: a feed's every card would otherwise keep a query of its own.
  return target.kind === 'profile' ? (
    <ProfileEntries {...props} viewerUid={viewer.uid} />
  ) : (
    <Entries {...props} viewerUid={viewer.uid} blocking={false} muting={false} />
  );
}

type EntriesProps = RelationshipMenuEntryProps & { viewerUid: string };

function ProfileEntries(props: EntriesProps) {
  const relationship = useFullRelationship(props.viewerUid, props.target.author.uid);
  return (
    <Entries
      {...props}
      blocking={relationship.data?.blocking ?? false}
      muting={relationship.data?.muting ?? false}
    />
  );
}

function Entries({
  target,
  viewerUid,
  returnFocus,
  children,
  blocking,
  muting,
}: EntriesProps & { blocking: boolean; muting: boolean }) {
  const [open, setOpen] = useState<RelationshipDialogKind | null>(null);
  const uid = target.author.uid;
  const name = target.author.name;
  const item = (kind: RelationshipDialogKind, label: string): MenuAction => ({
    label,
    movesFocus: true,
    danger: kind === 'block',
    onSelect: () => {
      preload(loadDialogs);
      setOpen(kind);
    },
  });
  const actions = [
    muting ? item('unmute', `Unmute ${name}`) : item('mute', `Mute ${name}`),
    blocking ? item('unblock', `Unblock ${name}`) : item('block', `Block ${name}`),
  ];
  return (
    <>
      {children(actions)}
      {open ? (
        <Suspense fallback={null}>
          <RelationshipDialog
            kind={open}
            viewerUid={viewerUid}
            uid={uid}
            name={name}
            returnFocus={returnFocus}
            onClose={() => {
              setOpen(null);
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
