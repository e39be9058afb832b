import { limits } from '@shared/limits.js';

/*
 * Drafts kept on the device (issue: notifications, search and the everyday things §4): an unsent post,
 * comment, reply or profile edit survives a reload or a closed tab and is offered back when its form
 * opens again. One localStorage entry per draft, named by the signed-in account and the form's target,
 * so one account never sees another's drafts; an account's drafts go when it signs out. Storage may be
 * missing, full or refused (private windows, disabled storage): drafts then quietly do nothing.
 */

/** How many drafts the device keeps, for how long, and how long one may be. */
export const draftLimits = {
  maxDrafts: 50,
  maxAgeMs: 30 * 24 * 60 * 60 * 1000,
  /** A draft longer than any request the server takes could never be sent: it is not kept. */
  maxChars: limits.jsonBodyBytes,
} as const;

const prefix = 'hearth:draft:';

/** The part of the Web Storage API drafts use (localStorage, or a stand-in in tests). */
export type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

/** A draft read back: what was typed, and when it was saved (ms since the epoch). */
export interface SavedDraft<T> {
  value: T;
  savedAt: number;
}

interface StoredDraft {
  v: unknown;
  t: number;
}

/** The storage entry of one account's draft for one form (`post`, `comment:{postId}`, …). */
export function draftKey(account: string, target: string): string {
  return `${prefix}${account}:${target}`;
}

/** The device's localStorage, or null where it is missing or refused (reading it can throw). */
export function browserDraftStorage(): DraftStorage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

function parse(raw: string | null): StoredDraft | null {
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null || !('t' in value) || !('v' in value)) {
      return null;
    }
    return typeof value.t === 'number' && Number.isFinite(value.t)
      ? { v: value.v, t: value.t }
      : null;
  } catch {
    return null;
  }
}

function draftKeys(storage: DraftStorage): string[] {
  const keys: string[] = [];
  for (let index = 0; index < storage.length; index += 1) {
    const key = storage.key(index);
    if (key?.startsWith(prefix)) keys.push(key);
  }
  return keys;
}

const expired = (draft: StoredDraft, now: number) =>
  now - draft.t > draftLimits.maxAgeMs || draft.t > now + draftLimits.maxAgeMs;

/**
 * Reads one draft; `read` checks its shape (null when it is not what the form expects). An expired or
 * unreadable draft is removed and reads as none.
 */
export function loadDraft<T>(
  storage: DraftStorage | null,
  account: string,
  target: string,
  read: (value: unknown) => T | null,
  now: number = Date.now(),
): SavedDraft<T> | null {
  if (!storage) return null;
  const key = draftKey(account, target);
  try {
    const raw = storage.getItem(key);
    if (raw === null) return null;
    const stored = parse(raw);
    const value = stored && !expired(stored, now) ? read(stored.v) : null;
    if (stored && value !== null) return { value, savedAt: stored.t };
    storage.removeItem(key);
  } catch {
    // Storage refused: as if there were no draft.
  }
  return null;
}

/**
 * Drops drafts past their age or unreadable, then the oldest beyond the count limit. Returns how many
 * remain.
 */
export function pruneDrafts(storage: DraftStorage | null, now: number = Date.now()): number {
  if (!storage) return 0;
  try {
    const kept: { key: string; t: number }[] = [];
    for (const key of draftKeys(storage)) {
      const stored = parse(storage.getItem(key));
      if (!stored || expired(stored, now)) storage.removeItem(key);
      else kept.push({ key, t: stored.t });
    }
    kept.sort((a, b) => b.t - a.t);
    for (const { key } of kept.slice(draftLimits.maxDrafts)) storage.removeItem(key);
    return Math.min(kept.length, draftLimits.maxDrafts);
  } catch {
    return 0;
  }
}

/** Removes the oldest `count` drafts, to make room when storage is full. */
function dropOldest(storage: DraftStorage, count: number): void {
  const drafts = draftKeys(storage)
    .map((key) => ({ key, t: parse(storage.getItem(key))?.t ?? 0 }))
    .sort((a, b) => a.t - b.t);
  for (const { key } of drafts.slice(0, count)) storage.removeItem(key);
}

/**
 * Keeps `value` as the draft of `target` for `account`, replacing the one before. Returns whether it was
 * kept: a value too long, or storage that stays full after older drafts make room, keeps nothing (and
 * the older copy of this draft goes, so a stale one is never offered back).
 */
export function saveDraft(
  storage: DraftStorage | null,
  account: string,
  target: string,
  value: unknown,
  now: number = Date.now(),
): boolean {
  if (!storage) return false;
  const key = draftKey(account, target);
  try {
    const text = JSON.stringify({ v: value, t: now } satisfies StoredDraft);
    if (text.length > draftLimits.maxChars) {
      storage.removeItem(key);
      return false;
    }
    // A new draft may take the count past the limit; rewriting one (as typing does) cannot.
    const added = storage.getItem(key) === null;
    try {
      storage.setItem(key, text);
    } catch {
      // Most likely full: older drafts make room, once.
      storage.removeItem(key);
      dropOldest(storage, Math.ceil(draftLimits.maxDrafts / 5));
      storage.setItem(key, text);
    }
    if (added) pruneDrafts(storage, now);
    return true;
  } catch {
    try {
      storage.removeItem(key);
    } catch {
      // Nothing more to do: the draft is simply not kept.
    }
    return false;
  }
}

/** Forgets one draft: sent, cancelled or discarded. */
export function removeDraft(storage: DraftStorage | null, account: string, target: string): void {
  try {
    storage?.removeItem(draftKey(account, target));
  } catch {
    // Storage refused: there is nothing to forget.
  }
}

/** Forgets every draft of one account (it signed out), leaving other accounts' alone. */
export function forgetAccountDrafts(storage: DraftStorage | null, account: string): void {
  if (!storage) return;
  try {
    for (const key of draftKeys(storage)) {
      if (key.startsWith(draftKey(account, ''))) storage.removeItem(key);
    }
  } catch {
    // Storage refused: there is nothing to forget.
  }
}

/** A draft's text field: a string, or null when the stored value is not one. */
export function draftText(value: unknown, field: string): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const text: unknown = Reflect.get(value, field);
  return typeof text === 'string' ? text : null;
}
