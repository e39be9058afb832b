import { profilePath } from '@shared/paths.js';
import type { UserDocument } from '@shared/schemas/user.js';
import { webHref } from '@web/lib/rich-segments.js';

/** The profile's website as a link labelled with its host name; null for anything not http(s). */
export function websiteLink(value: string | null): { href: string; label: string } | null {
  if (!value) return null;
  const href = webHref(value);
  if (!href) return null;
  return { href, label: new URL(href).host };
}

/** The address of a profile under the same prefix the visitor used (spec §2: /{username} or /ym/{username}). */
export function samePrefixPath(pathname: string, user: UserDocument): string {
  const path = profilePath(user);
  return pathname.startsWith('/ym/') && user.username ? `/ym${path}` : path;
}
