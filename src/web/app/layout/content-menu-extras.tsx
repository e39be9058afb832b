import type { ReactNode } from 'react';
import { useAuth } from '@web/features/auth/auth-state.js';
import { RelationshipMenuEntry } from '@web/features/relationships/components/relationship-menu-entry.js';
import {
  ReportMenuEntry,
  type ReporterState,
} from '@web/features/reports/components/report-menu-entry.js';
import {
  ContentMenuContext,
  type ContentMenuSlotProps,
  type RenderContentMenu,
} from '@web/lib/content-menu.js';

/**
 * The entries the app adds to every More menu of posts, comments and profiles, each feature's entry
 * wrapped around the next so each keeps its own state and dialog. Add a feature's entry here.
 */
function ContentMenuExtras({ target, returnFocus, children }: ContentMenuSlotProps) {
  const auth = useAuth();
  const viewer: ReporterState = auth.isLoading
    ? undefined
    : auth.user && {
        uid: auth.user.uid,
        active: auth.user.active,
        suspended: auth.user.suspended,
      };
  return (
    <ReportMenuEntry target={target} viewer={viewer} returnFocus={returnFocus}>
      {(report) => (
        <RelationshipMenuEntry target={target} viewer={viewer} returnFocus={returnFocus}>
          {(relationship) => children([...report, ...relationship])}
        </RelationshipMenuEntry>
      )}
    </ReportMenuEntry>
  );
}

const renderExtras: RenderContentMenu = (props) => <ContentMenuExtras {...props} />;

/** Provides the app's More-menu entries to the features below it (lib/content-menu.tsx). */
export function ContentMenuProvider({ children }: { children: ReactNode }) {
  return <ContentMenuContext value={renderExtras}>{children}</ContentMenuContext>;
}
