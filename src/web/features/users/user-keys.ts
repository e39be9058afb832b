/** Query keys of user documents, so a realtime snapshot can find and patch every cached copy (STYLE.md §4). */
export const userKeys = {
  all: ['users'] as const,
  details: () => [...userKeys.all, 'detail'] as const,
  detail: (uid: string) => [...userKeys.details(), uid] as const,
  byUsernames: () => [...userKeys.all, 'by-username'] as const,
  byUsername: (username: string) => [...userKeys.byUsernames(), username.toLowerCase()] as const,
};
