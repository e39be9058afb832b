/**
 * Whose content the signed-in reader does not see (ADR 0022): people they block, who block them, or whom
 * they mute. The server filters every list; this set lets live arrivals (a post pushed on the feed topic)
 * be dropped before they reach the screen. The relationships feature keeps it current; features read it
 * here, so none imports another (ADR 0015).
 */
let hidden: ReadonlySet<string> = new Set();
const listeners = new Set<() => void>();

/** Replaces the set (the relationships feature, after each read of /api/me/hidden-authors). */
export function setHiddenAuthors(uids: readonly string[]): void {
  hidden = new Set(uids);
  for (const listener of listeners) listener();
}

/** Whether posts and comments by `uid` are hidden from the reader. */
export function isHiddenAuthor(uid: string): boolean {
  return hidden.has(uid);
}

/** Calls `listener` whenever the set changes; returns the unsubscribe. */
export function subscribeHiddenAuthors(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
