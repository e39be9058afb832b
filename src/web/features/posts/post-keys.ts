import { feedKeys } from '@web/lib/feed-keys.js';

/**
 * Query keys of posts (STYLE.md §4). Every list of posts (feeds, a user's posts) sits under `lists()`,
 * so a realtime change can find and patch each cached copy of a post. The feeds' own keys are in
 * lib/feed-keys.ts, where the follows feature finds the Following feed.
 */
export const postKeys = {
  all: ['posts'] as const,
  lists: () => [...postKeys.all, 'list'] as const,
  feeds: () => feedKeys.all,
  feed: feedKeys.feed,
  byUser: (uid: string) => [...postKeys.lists(), 'user', uid] as const,
  details: () => [...postKeys.all, 'detail'] as const,
  detail: (postId: string) => [...postKeys.details(), postId] as const,
  versions: (postId: string) => [...postKeys.all, 'versions', postId] as const,
  likers: (postId: string) => [...postKeys.all, 'likers', postId] as const,
};
