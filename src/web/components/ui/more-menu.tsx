import { lazy, Suspense, useState, type Ref } from 'react';
import { onDemand, preload } from '@web/lib/on-demand.js';
import { MoreIcon } from './icons.js';

/** One entry of a More menu. */
export interface MenuAction {
  label: string;
  onSelect: () => void;
  /** Destructive (Delete): shown in the danger colour. */
  danger?: boolean;
  /** Focus moves on to what the action opens (a form, a dialog) instead of back to the More button. */
  movesFocus?: boolean;
}

export interface MoreMenuProps {
  /** The More button, for returning focus to it after an edit or a dialog. */
  triggerRef: Ref<HTMLButtonElement>;
  triggerClassName: string;
  /** Added to the popup's `menu` class. */
  menuClassName?: string;
  actions: readonly MenuAction[];
}

/**
 * Edit and Delete as posts and comments offer them, each only with its handler (null: not allowed).
 * Both move focus on, to the edit form and to the confirmation.
 */
export function editDeleteActions(
  onEdit: (() => void) | null,
  onDelete: (() => void) | null,
): MenuAction[] {
  const actions: MenuAction[] = [];
  if (onEdit) actions.push({ label: 'Edit', onSelect: onEdit, movesFocus: true });
  if (onDelete)
    actions.push({ label: 'Delete', onSelect: onDelete, movesFocus: true, danger: true });
  return actions;
}

const loadActionMenu = onDemand(() => import('./action-menu.js'));
const ActionMenu = lazy(() => loadActionMenu().then((module) => ({ default: module.ActionMenu })));

interface PlaceholderProps {
  triggerRef: Ref<HTMLButtonElement>;
  className: string;
  busy: boolean;
  onRequest?: () => void;
}

/** Looks and reads like the menu's button: "More", a menu popup, closed. */
function Placeholder({ triggerRef, className, busy, onRequest }: PlaceholderProps) {
  return (
    <button
      ref={triggerRef}
      type="button"
      className={className}
      aria-label="More"
      aria-haspopup="menu"
      aria-expanded={false}
      aria-busy={busy || undefined}
      onPointerEnter={() => {
        preload(loadActionMenu);
      }}
      onFocus={() => {
        preload(loadActionMenu);
      }}
      onClick={onRequest}
    >
      <MoreIcon />
    </button>
  );
}

/**
 * The More button of a post or a comment. Its menu's code (Radix) arrives on first use, so readers
 * who never open one never download it: until then a plain button of the same look and name stands
 * in, and pressing it opens the menu as soon as the code is in.
 */
export function MoreMenu(props: MoreMenuProps) {
  const [requested, setRequested] = useState(false);
  const { triggerRef, triggerClassName } = props;
  if (!requested) {
    return (
      <Placeholder
        triggerRef={triggerRef}
        className={triggerClassName}
        busy={false}
        onRequest={() => {
          setRequested(true);
        }}
      />
    );
  }
  return (
    <Suspense fallback={<Placeholder triggerRef={triggerRef} className={triggerClassName} busy />}>
      <ActionMenu {...props} initiallyOpen />
    </Suspense>
  );
}
