import { createContext, use, type ReactNode } from 'react';
import type { MenuAction } from '@web/components/ui/more-menu.js';

/** What a More menu is about: a post, a comment, or a person (from their profile). */
export interface ContentMenuTarget {
  kind: 'post' | 'comment' | 'profile';
  /** The post's or comment's id, or the person's uid. */
  id: string;
  /** Who wrote it; for a profile, the person. */
  author: { uid: string; name: string };
}

export interface ContentMenuSlotProps {
  target: ContentMenuTarget;
  /** Where focus goes back to when a dialog opened from the menu closes: its More button. */
  returnFocus: () => HTMLElement | null;
  /** Renders the menu with the entries other features add after its own. */
  children: (extra: readonly MenuAction[]) => ReactNode;
}

/** Renders a menu's extra entries (and the dialogs they open) around the menu itself. */
export type RenderContentMenu = (props: ContentMenuSlotProps) => ReactNode;

const noExtras: RenderContentMenu = ({ children }) => children([]);

/**
 * Lets the app shell add entries (Report, Block, Mute) to the More menus of posts, comments and profiles
 * without those features importing one another (ADR 0015): the shell provides a render function, the
 * menu asks it for its extra entries. Without a provider (tests, a bare feature) there are none.
 */
export const ContentMenuContext = createContext<RenderContentMenu>(noExtras);

/** A More menu's place for entries added by the app shell; see ContentMenuContext. */
export function ContentMenuSlot(props: ContentMenuSlotProps) {
  const render = use(ContentMenuContext);
  return render(props);
}
