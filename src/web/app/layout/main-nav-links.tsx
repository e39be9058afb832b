import type { ReactNode, RefObject } from 'react';
import { Link, useLocation } from 'react-router';
import { profilePath } from '@shared/paths.js';
import type { UserDocument } from '@shared/schemas/user.js';
import { isStaff } from '@shared/roles.js';
import { useModerationCounts } from '@web/features/admin/use-moderation-counts.js';
import { unreadBadgeText } from '@web/features/notifications/unread-state.js';
import { useUnreadState } from '@web/features/notifications/use-unread-state.js';
import { BellIcon, HomeIcon, PenIcon, PersonIcon, SearchIcon, ShieldIcon } from './nav-icons.js';

/** Where the main navigation's links go (issue: notifications and search §1). */
export const mainNavPaths = {
  home: '/feed',
  search: '/search',
  notifications: '/notifications',
  moderation: '/admin',
} as const;

/** Which of the main navigation's places a path is, for aria-current. */
export function currentPlace(
  pathname: string,
  user: Pick<UserDocument, 'uid' | 'username'> | null,
): 'home' | 'search' | 'notifications' | 'moderation' | 'profile' | null {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/' || path === mainNavPaths.home) return 'home';
  if (path === mainNavPaths.search) return 'search';
  if (path === mainNavPaths.notifications) return 'notifications';
  if (path === mainNavPaths.moderation || path.startsWith(`${mainNavPaths.moderation}/`)) {
    return 'moderation';
  }
  if (user) {
    // Usernames are case-insensitive and linked in lowercase; a uid is matched as it is.
    const own = profilePath(user);
    if (path === own || path.toLowerCase() === own) return 'profile';
  }
  return null;
}

/** The accessible name of the Notifications link: the count is read out with it. */
export function notificationsLabel(unread: number): string {
  const badge = unreadBadgeText(unread);
  return badge === null ? 'Notifications' : `Notifications, ${badge} unread`;
}

interface NavItemProps {
  to: string;
  current: boolean;
  icon: ReactNode;
  label: string;
  ariaLabel?: string;
  keyShortcut?: string;
  children?: ReactNode;
  /** Shown from the top bar's width up only (the bottom bar on phones has room for five). */
  wideOnly?: boolean;
}

function NavItem({
  to,
  current,
  icon,
  label,
  ariaLabel,
  keyShortcut,
  children,
  wideOnly = false,
}: NavItemProps) {
  return (
    <li className={wideOnly ? 'main-nav__item main-nav__item--wide' : 'main-nav__item'}>
      <Link
        to={to}
        className="main-nav__link"
        aria-current={current ? 'page' : undefined}
        aria-label={ariaLabel}
        aria-keyshortcuts={keyShortcut}
      >
        <span className="main-nav__icon-box">
          {icon}
          {children}
        </span>
        <span className="main-nav__label">{label}</span>
      </Link>
    </li>
  );
}

function NotificationsItem({ uid, current }: { uid: string; current: boolean }) {
  const unread = useUnreadState(uid).data?.unread ?? 0;
  const badge = unreadBadgeText(unread);
  return (
    <NavItem
      to={mainNavPaths.notifications}
      current={current}
      icon={<BellIcon />}
      label="Notifications"
      ariaLabel={badge === null ? undefined : notificationsLabel(unread)}
    >
      {badge === null ? null : (
        <span className="main-nav__badge" aria-hidden="true">
          {badge}
        </span>
      )}
    </NavItem>
  );
}

/**
 * The moderation console, for moderators and administrators, with the count of open reports once the
 * staff-only `moderation` topic has sent it. On phones the console is reached from the account settings.
 */
function ModerationItem({ current }: { current: boolean }) {
  const open = useModerationCounts(true)?.openReports ?? 0;
  const badge = unreadBadgeText(open);
  return (
    <NavItem
      to={mainNavPaths.moderation}
      current={current}
      icon={<ShieldIcon />}
      label="Moderation"
      ariaLabel={badge === null ? undefined : `Moderation, ${badge} open reports`}
      wideOnly
    >
      {badge === null ? null : (
        <span className="main-nav__badge" aria-hidden="true">
          {badge}
        </span>
      )}
    </NavItem>
  );
}

interface MainNavLinksProps {
  /** The signed-in account; null when signed out or not known yet. */
  user: UserDocument | null;
  /** Write is offered: signed in, and the account is active (spec §6). */
  canWrite: boolean;
  onWrite: () => void;
  /** The Write button is about to be used: a moment to fetch the composer's code. */
  onWriteIntent: () => void;
  writeButtonRef: RefObject<HTMLButtonElement | null>;
}

/**
 * Home, Search, Notifications, Profile and Write (issue: notifications and search §1). One list for
 * every width: a row in the top bar on wide screens, a bar fixed to the bottom on phones. Signed out,
 * Home and Search only.
 */
export function MainNavLinks({
  user,
  canWrite,
  onWrite,
  onWriteIntent,
  writeButtonRef,
}: MainNavLinksProps) {
  const { pathname } = useLocation();
  const place = currentPlace(pathname, user);
  return (
    <ul className="main-nav">
      <NavItem to={mainNavPaths.home} current={place === 'home'} icon={<HomeIcon />} label="Home" />
      <NavItem
        to={mainNavPaths.search}
        current={place === 'search'}
        icon={<SearchIcon />}
        label="Search"
        keyShortcut="/"
      />
      {user ? (
        <>
          <NotificationsItem uid={user.uid} current={place === 'notifications'} />
          <NavItem
            to={profilePath(user)}
            current={place === 'profile'}
            icon={<PersonIcon />}
            label="Profile"
          />
          {isStaff(user.role) && user.active && !user.suspended ? (
            <ModerationItem current={place === 'moderation'} />
          ) : null}
        </>
      ) : null}
      {canWrite ? (
        <li className="main-nav__item main-nav__item--write">
          <button
            ref={writeButtonRef}
            type="button"
            className="main-nav__write"
            aria-haspopup="dialog"
            aria-keyshortcuts="n"
            onClick={onWrite}
            onPointerEnter={onWriteIntent}
            onFocus={onWriteIntent}
          >
            <span className="main-nav__icon-box">
              <PenIcon />
            </span>
            <span className="main-nav__label">Write</span>
          </button>
        </li>
      ) : null}
    </ul>
  );
}
