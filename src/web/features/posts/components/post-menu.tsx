import { useRef, useState, type Ref } from 'react';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { MoreIcon } from './post-icons.js';

export interface PostMenuProps {
  triggerRef: Ref<HTMLButtonElement>;
  canEdit: boolean;
  canDelete: boolean;
  onCopyLink: () => void;
  onEdit: () => void;
  onDelete: () => void;
  /** Open at once: the reader pressed the button before this code had loaded. */
  initiallyOpen?: boolean;
}

/**
 * A post's More menu: Copy link, and Edit (author) and Delete (author or administrator). Radix gives
 * the WAI-ARIA menu button; non-modal, because the modal variant injects a <style> (ADR 0006).
 */
export function PostMenu({
  triggerRef,
  canEdit,
  canDelete,
  onCopyLink,
  onEdit,
  onDelete,
  initiallyOpen = false,
}: PostMenuProps) {
  const [open, setOpen] = useState(initiallyOpen);
  // Edit and Delete move focus on (to the form, to the dialog): the menu must not pull it back.
  const focusMoves = useRef(false);
  return (
    <DropdownMenu.Root open={open} onOpenChange={setOpen} modal={false}>
      <DropdownMenu.Trigger ref={triggerRef} className="post__more" aria-label="More">
        <MoreIcon />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          className="menu post-menu"
          align="end"
          sideOffset={4}
          collisionPadding={8}
          loop
          onCloseAutoFocus={(event) => {
            if (!focusMoves.current) return;
            focusMoves.current = false;
            event.preventDefault();
          }}
        >
          <DropdownMenu.Item className="menu__item" onSelect={onCopyLink}>
            Copy link
          </DropdownMenu.Item>
          {canEdit ? (
            <DropdownMenu.Item
              className="menu__item"
              onSelect={() => {
                focusMoves.current = true;
                onEdit();
              }}
            >
              Edit
            </DropdownMenu.Item>
          ) : null}
          {canDelete ? (
            <DropdownMenu.Item
              className="menu__item menu__item--danger"
              onSelect={() => {
                focusMoves.current = true;
                onDelete();
              }}
            >
              Delete
            </DropdownMenu.Item>
          ) : null}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
