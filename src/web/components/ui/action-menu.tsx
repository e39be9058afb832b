import { useRef, useState } from 'react';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { MoreIcon } from './icons.js';
import type { MoreMenuProps } from './more-menu.js';

/** Open at once: the reader pressed the button before this code had loaded. */
export type ActionMenuProps = MoreMenuProps & { initiallyOpen?: boolean };

/**
 * The More menu itself (loaded on demand by MoreMenu). Radix gives the WAI-ARIA menu button;
 * non-modal, because the modal variant injects a <style> element, which the CSP refuses (ADR 0006).
 */
export function ActionMenu({
  triggerRef,
  triggerClassName,
  menuClassName,
  actions,
  initiallyOpen = false,
}: ActionMenuProps) {
  const [open, setOpen] = useState(initiallyOpen);
  // An action that moves focus on (to a form, to a dialog): the menu must not pull it back.
  const focusMoves = useRef(false);
  return (
    <DropdownMenu.Root open={open} onOpenChange={setOpen} modal={false}>
      <DropdownMenu.Trigger ref={triggerRef} className={triggerClassName} aria-label="More">
        <MoreIcon />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          className={menuClassName ? `menu ${menuClassName}` : 'menu'}
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
          {actions.map((action) => (
            <DropdownMenu.Item
              key={action.label}
              className={action.danger ? 'menu__item menu__item--danger' : 'menu__item'}
              onSelect={() => {
                focusMoves.current = action.movesFocus === true;
                action.onSelect();
              }}
            >
              {action.label}
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
