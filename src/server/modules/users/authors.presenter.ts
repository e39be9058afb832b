import type { Author } from '../../../shared/schemas/post.js';
import { parseRenditions } from '../../media/renditions.js';
import type { AuthorColumns } from './authors.repository.js';

/** Turns author columns into the contract's author. */
export function presentAuthor(row: AuthorColumns, mediaUrl: (key: string) => string): Author {
  const avatar = parseRenditions(row.authorAvatarRenditions);
  const key = avatar.thumb?.key ?? avatar.avatar?.key;
  return {
    uid: row.authorUid,
    username: row.authorUsername,
    firstName: row.authorFirstName,
    lastName: row.authorLastName,
    displayName: row.authorDisplayName,
    avatarThumb: key ? mediaUrl(key) : null,
    active: row.authorActive === null ? true : Boolean(row.authorActive),
  };
}
