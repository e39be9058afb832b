import { useCallback, useEffect, useRef, useState } from 'react';
import {
  browserDraftStorage,
  loadDraft,
  pruneDrafts,
  removeDraft,
  saveDraft,
  type SavedDraft,
} from './drafts.js';

/** Typing pauses this long before the draft is written, so storage is not written per key. */
export const draftSaveDelayMs = 500;

let pruned = false;

interface DraftOptions<T> {
  /** The signed-in account; null keeps nothing (signed out, or not known yet). */
  account: string | null;
  /** Which form: `post`, `comment:{postId}`, `reply:{commentId}`, `profile`. */
  target: string;
  /** Checks a stored value's shape; null when it is not this form's. */
  read: (value: unknown) => T | null;
}

export interface DraftHandle<T> {
  /** The draft found when the form opened, or null. */
  restored: SavedDraft<T> | null;
  /** Keeps `value` once typing pauses; null (nothing typed) removes the draft instead. */
  save: (value: T | null) => void;
  /** Forgets the draft now: sent, cancelled or discarded. */
  clear: () => void;
}

/**
 * One form's draft on this device (lib/drafts.ts): read once when the form opens, written as typing
 * pauses, and written at once when the form goes away or the page is hidden (a reload or a closed tab
 * within the pause keeps the last words too).
 */
export function useDraft<T>({ account, target, read }: DraftOptions<T>): DraftHandle<T> {
  const [restored] = useState(() => {
    const storage = browserDraftStorage();
    if (!pruned) {
      pruned = true;
      pruneDrafts(storage);
    }
    return account ? loadDraft(storage, account, target, read) : null;
  });
  const pending = useRef<{ value: T | null } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const flush = useCallback(() => {
    clearTimeout(timer.current);
    const next = pending.current;
    pending.current = null;
    if (!next || !account) return;
    const storage = browserDraftStorage();
    if (next.value === null) removeDraft(storage, account, target);
    else saveDraft(storage, account, target, next.value);
  }, [account, target]);

  const save = useCallback(
    (value: T | null) => {
      if (!account) return;
      pending.current = { value };
      clearTimeout(timer.current);
      timer.current = setTimeout(flush, draftSaveDelayMs);
    },
    [account, flush],
  );

  const clear = useCallback(() => {
    clearTimeout(timer.current);
    pending.current = null;
    if (account) removeDraft(browserDraftStorage(), account, target);
  }, [account, target]);

  useEffect(() => {
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      // The form is going (or its account or target changed): what was typed last is kept.
      flush();
    };
  }, [flush]);

  return { restored, save, clear };
}
