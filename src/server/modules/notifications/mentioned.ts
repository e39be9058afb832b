import { mentionedUsernames } from '../../../shared/mentions.js';

/** Usernames `after` mentions that `before` did not: an edit notifies only the people it adds. */
export function newlyMentioned(before: string, after: string): string[] {
  const earlier = new Set(mentionedUsernames(before));
  return mentionedUsernames(after).filter((username) => !earlier.has(username));
}
