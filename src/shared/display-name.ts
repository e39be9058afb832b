/** Fields that feed the display-name rule. */
export interface NameParts {
  firstName?: string | null;
  lastName?: string | null;
  displayName?: string | null;
  username?: string | null;
}

/**
 * spec §3: first and last name joined; otherwise displayName; otherwise username; otherwise 'Me'.
 * Blank parts count as missing.
 */
export function displayNameOf(user: NameParts | null | undefined): string {
  const first = user?.firstName?.trim() ?? '';
  const last = user?.lastName?.trim() ?? '';
  const joined = [first, last].filter(Boolean).join(' ');
  if (joined) return joined;
  const display = user?.displayName?.trim();
  if (display) return display;
  const username = user?.username?.trim();
  if (username) return username;
  return 'Me';
}
