import { displayNameOf } from '@shared/display-name.js';
import type { UserDocument } from '@shared/schemas/user.js';
import { Avatar } from '@web/components/ui/avatar.js';

interface UserMenuButtonProps {
  user: UserDocument;
}

/** What the menu button shows (spec §2: avatar and name); the avatar is decorative beside the name. */
export function UserMenuButtonContent({ user }: UserMenuButtonProps) {
  return (
    <>
      <Avatar user={user} alt="" size="sm" />
      <span className="user-menu__name">{displayNameOf(user)}</span>
      <svg
        className="user-menu__chevron"
        viewBox="0 0 16 16"
        width="16"
        height="16"
        aria-hidden="true"
        focusable="false"
      >
        <path
          d="m4 6 4 4 4-4"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
        />
      </svg>
    </>
  );
}

/** The menu button's accessible name; it contains the visible name (WCAG 2.5.3 label in name). */
export function userMenuLabel(user: UserDocument): string {
  return `Account menu for ${displayNameOf(user)}`;
}

/**
 * Same look as the menu button while the menu's code loads. Deliberately not a button: a control that
 * is replaced a moment later would drop the keyboard focus a user had just given it.
 */
export function UserMenuPlaceholder({ user }: UserMenuButtonProps) {
  return (
    <span className="user-menu__trigger user-menu__trigger--placeholder" aria-hidden="true">
      <UserMenuButtonContent user={user} />
    </span>
  );
}
