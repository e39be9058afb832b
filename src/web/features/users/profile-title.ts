import { displayNameOf } from '@shared/display-name.js';
import type { UserDocument } from '@shared/schemas/user.js';

/** The tab title of a profile: "Ada Lovelace (@ada)". */
export function profileTitle(user: UserDocument): string {
  const name = displayNameOf(user);
  return user.username ? `${name} (@${user.username})` : name;
}
