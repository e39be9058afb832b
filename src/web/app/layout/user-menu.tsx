import { useEffect, useRef, useState } from 'react';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Link, useLocation, type Location } from 'react-router';
import { editProfilePath, profilePath } from '@shared/paths.js';
import type { UserDocument } from '@shared/schemas/user.js';
import { UserMenuButtonContent, userMenuLabel } from './user-menu-button.js';

interface UserMenuProps {
  user: UserDocument;
}

/**
 * spec §2 user menu: View Profile, Edit Profile, Sign Out. Radix gives the WAI-ARIA menu button
 * (arrows move, Escape closes back to the button, outside clicks close). Opening from the keyboard
 * focuses an item here: the first for Enter, Space and ArrowDown, the last for ArrowUp. Radix focuses
 * the first one itself only when its document-wide listener saw the key and no pointer moved since, which
 * a key pressed as the button appears, or a layout shift under the pointer, can defeat.
 */
export function UserMenu({ user }: UserMenuProps) {
  const location = useLocation();
  // spec §2: the menu closes on route change. Open state belongs to the location it was opened at,
  // so any navigation (link, back button, redirect) closes it without an effect.
  const [openAt, setOpenAt] = useState<Location | null>(null);
  const open = openAt === location;
  const focusOnOpen = useRef<'first' | 'last' | null>(null);
  const chose = useRef(false);
  const firstItem = useRef<HTMLAnchorElement>(null);
  const lastItem = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    if (!open) return;
    chose.current = false;
    const wanted = focusOnOpen.current;
    focusOnOpen.current = null;
    if (!wanted) return;
    const target = wanted === 'first' ? firstItem : lastItem;
    // After Radix's own focus on opening, which goes to the menu or its first item.
    const frame = requestAnimationFrame(() => {
      target.current?.focus();
    });
    return () => {
      cancelAnimationFrame(frame);
    };
  }, [open]);

  return (
    <DropdownMenu.Root
      open={open}
      onOpenChange={(next) => {
        setOpenAt(next ? location : null);
      }}
      // Non-modal: the modal variant injects a <style> element for scroll locking, which the
      // server's CSP (style-src 'self') refuses.
      modal={false}
    >
      <DropdownMenu.Trigger
        className="user-menu__trigger"
        aria-label={userMenuLabel(user)}
        onPointerDown={() => {
          focusOnOpen.current = null;
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowUp') {
            event.preventDefault();
            focusOnOpen.current = 'last';
            setOpenAt(location);
          } else if (
            !open &&
            (event.key === 'Enter' || event.key === ' ' || event.key === 'ArrowDown')
          ) {
            // Radix opens the menu on these.
            focusOnOpen.current = 'first';
          }
        }}
      >
        <UserMenuButtonContent user={user} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          className="menu"
          align="end"
          sideOffset={8}
          collisionPadding={8}
          loop
          onCloseAutoFocus={(event) => {
            // After choosing a destination, focus belongs to the new page, not the old button.
            if (chose.current) event.preventDefault();
          }}
        >
          <DropdownMenu.Item
            asChild
            className="menu__item"
            onSelect={() => {
              chose.current = true;
            }}
          >
            <Link ref={firstItem} to={profilePath(user)}>
              View Profile
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item
            asChild
            className="menu__item"
            onSelect={() => {
              chose.current = true;
            }}
          >
            <Link to={editProfilePath(user)}>Edit Profile</Link>
          </DropdownMenu.Item>
          {/* Issue: profiles §5 links account settings from the menu, after the spec's own items. */}
          <DropdownMenu.Item
            asChild
            className="menu__item"
            onSelect={() => {
              chose.current = true;
            }}
          >
            <Link to="/settings/account">Account settings</Link>
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="menu__separator" />
          <DropdownMenu.Item
            asChild
            className="menu__item"
            onSelect={() => {
              chose.current = true;
            }}
          >
            <Link ref={lastItem} to="/signout">
              Sign Out
            </Link>
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
