import { createContext, use, type ReactNode } from 'react';
import { usePostViewer } from '@web/app/hooks/use-post-viewer.js';
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
 * Who opens the menus, for every card's entries: the post screens' reader (its `active` already counts a
 * suspension, as both entries do). The same object until one of its fields changes, so a change to the rest
 * of the account's document (its counts, its picture) renders no card's menu again.
 */
const MenuViewerContext = createContext<ReporterState>(undefined);

/**
 * The entries the app adds to every More menu of posts, comments and profiles, each feature's entry
 * wrapped around the next so each keeps its own state and dialog. Add a feature's entry here.
 */
function ContentMenuExtras({ target, returnFocus, children }: ContentMenuSlotProps) {
  const viewer = use(MenuViewerContext);
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
  return (
    <MenuViewerContext value={usePostViewer()}>
      <ContentMenuContext value={renderExtras}>{children}</ContentMenuContext>
    </MenuViewerContext>
  );
}
