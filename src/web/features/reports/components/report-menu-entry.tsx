import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { MenuAction } from '@web/components/ui/more-menu.js';
import type { ContentMenuTarget } from '@web/lib/content-menu.js';
import { onDemand, preload } from '@web/lib/on-demand.js';

// The dialog and the contract's schemas arrive when someone reports, not with every page.
const loadReportDialog = onDemand(() => import('./report-dialog.js'));
const ReportDialog = lazy(() =>
  loadReportDialog().then((module) => ({ default: module.ReportDialog })),
);

/** Who is looking, as far as reporting goes: undefined while the session loads, null when signed out. */
export type ReporterState =
  { uid: string; active: boolean; suspended?: boolean } | null | undefined;

interface ReportMenuEntryProps {
  target: ContentMenuTarget;
  viewer: ReporterState;
  returnFocus: () => HTMLElement | null;
  children: (extra: readonly MenuAction[]) => ReactNode;
}

/**
 * The More menu's Report entry and its dialog (issue: moderation and administration §3). Only active,
 * unsuspended people report, and never their own things; visitors are offered to sign in instead, as
 * the other actions do.
 */
export function ReportMenuEntry({ target, viewer, returnFocus, children }: ReportMenuEntryProps) {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  let actions: MenuAction[] = [];
  if (viewer === null) {
    actions = [
      {
        label: 'Sign in to report',
        onSelect: () => {
          void navigate('/login');
        },
      },
    ];
  } else if (
    viewer !== undefined &&
    viewer.active &&
    !viewer.suspended &&
    viewer.uid !== target.author.uid
  ) {
    actions = [
      {
        label: 'Report',
        movesFocus: true,
        onSelect: () => {
          preload(loadReportDialog);
          setOpen(true);
        },
      },
    ];
  }
  return (
    <>
      {children(actions)}
      {open ? (
        <Suspense fallback={null}>
          <ReportDialog
            target={{ kind: target.kind, id: target.id, authorName: target.author.name }}
            returnFocus={returnFocus}
            onClose={() => {
              setOpen(false);
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
