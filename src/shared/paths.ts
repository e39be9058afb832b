/**
 * Route words of the app. A username can never shadow one of them (DESIGN.md, "The spec's own rules").
 * spec §2 lists the route table; the rest are reserved for present and future top-level paths.
 */
export const reservedUsernames: ReadonlySet<string> = new Set([
  // spec §2 routes
  'feed',
  'login',
  'signin',
  'register',
  'signup',
  'logout',
  'signout',
  'post',
  'ym',
  'user',
  'settings',
  'reset_password',
  'tos',
  'privacy',
  // infrastructure and future sections
  'admin',
  'administrator',
  'api',
  'img',
  'media',
  'assets',
  'static',
  'public',
  'favicon',
  'robots',
  'sitemap',
  'manifest',
  'about',
  'help',
  'support',
  'contact',
  'terms',
  'search',
  'explore',
  'notifications',
  'unsubscribe',
  'messages',
  'tags',
  'tag',
  'hashtag',
  'posts',
  'users',
  'profile',
  'account',
  'auth',
  'oauth',
  'moderation',
  'moderator',
  'mod',
  'root',
  'system',
  'hearth',
  'new',
  'edit',
  'edit_profile',
  'home',
  'me',
  'null',
  'undefined',
  'www',
  'mail',
  'health',
  'ready',
  'well_known',
]);

/** True when `username` (already lowercased) is reserved for the app's own routes. */
export function isReservedUsername(username: string): boolean {
  return reservedUsernames.has(username.toLowerCase());
}

/** Minimal shape needed to build a user's links (spec §2, user menu). */
export interface UserLinkTarget {
  uid: string;
  username: string | null;
}

/** spec §2: View Profile goes to /{username} in lowercase, /user/{uid} without a username, /login without a user. */
export function profilePath(user: UserLinkTarget | null | undefined): string {
  if (!user) return '/login';
  if (user.username) return `/${user.username.toLowerCase()}`;
  return `/user/${encodeURIComponent(user.uid)}`;
}

/** spec §2: Edit Profile goes to /{username}/edit-profile, or /settings/profile without a username. */
export function editProfilePath(user: UserLinkTarget | null | undefined): string {
  if (user?.username) return `/${user.username.toLowerCase()}/edit-profile`;
  return '/settings/profile';
}

/** spec §3: default and fallback image paths. */
export const defaultImages = {
  avatar: '/img/default-avatar.png',
  avatarFallback: '/default-avatar.png',
  cover: '/img/default-cover-image.png',
  logo: '/img/logo-small.png',
} as const;

/** spec §2: a single post. */
export function postPath(postId: string): string {
  return `/post/${encodeURIComponent(postId)}`;
}

/** A hashtag's own page: the Everyone feed of that tag (issue: notifications and search §3). */
export function hashtagPath(tag: string): string {
  return `/tags/${encodeURIComponent(tag.toLowerCase())}`;
}

/** A profile's follower and following lists (issue: posts). */
export function followListPath(user: UserLinkTarget, list: 'followers' | 'following'): string {
  return user.username
    ? `/${user.username.toLowerCase()}/${list}`
    : `/user/${encodeURIComponent(user.uid)}`;
}
