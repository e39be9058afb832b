/**
 * Keyboard shortcuts in the style of Bluesky's and Mastodon's web apps (issue: notifications and search
 * §1). Pure logic: which key press means what, and when a key press is not ours to take.
 */

export type ShortcutAction = 'compose' | 'search' | 'home' | 'notifications' | 'profile' | 'help';

export interface Shortcut {
  action: ShortcutAction;
  /** The keys in the order they are pressed ("g", then "h"). */
  keys: readonly string[];
  description: string;
}

/** Every shortcut, in the order the help dialog lists them. */
export const shortcuts: readonly Shortcut[] = [
  { action: 'compose', keys: ['n'], description: 'Write a new post' },
  { action: 'search', keys: ['/'], description: 'Search' },
  { action: 'home', keys: ['g', 'h'], description: 'Go to the home feed' },
  { action: 'notifications', keys: ['g', 'n'], description: 'Go to notifications' },
  { action: 'profile', keys: ['g', 'p'], description: 'Go to your profile' },
  { action: 'help', keys: ['?'], description: 'Show these keyboard shortcuts' },
];

/** How long after `g` its second key still counts. */
export const sequenceTimeoutMs = 1_000;

const prefix = 'g';

const singleKeys: ReadonlyMap<string, ShortcutAction> = new Map(
  shortcuts.flatMap((shortcut) =>
    shortcut.keys.length === 1 && shortcut.keys[0] !== undefined
      ? [[shortcut.keys[0], shortcut.action] as const]
      : [],
  ),
);

const prefixedKeys: ReadonlyMap<string, ShortcutAction> = new Map(
  shortcuts.flatMap((shortcut) =>
    shortcut.keys.length === 2 && shortcut.keys[0] === prefix && shortcut.keys[1] !== undefined
      ? [[shortcut.keys[1], shortcut.action] as const]
      : [],
  ),
);

/** The parts of a KeyboardEvent the shortcuts read. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  repeat?: boolean;
  isComposing?: boolean;
  defaultPrevented?: boolean;
}

/**
 * Whether a key press belongs to someone else: a chord with Ctrl, ⌘ or Alt (browser and system
 * shortcuts), a held key's repeats, an input method still composing, or one a control already handled.
 * Shift is allowed: `?` needs it on most layouts, and keys are compared as typed ("N" is not "n").
 */
export function isForeignKeyPress(press: KeyPress): boolean {
  return (
    press.ctrlKey ||
    press.metaKey ||
    press.altKey ||
    press.repeat === true ||
    press.isComposing === true ||
    press.defaultPrevented === true
  );
}

const typingInputTypes = new Set([
  'text',
  'search',
  'email',
  'password',
  'url',
  'tel',
  'number',
  'date',
  'datetime-local',
  'month',
  'time',
  'week',
]);

/** Whether the element takes typed text (or choices), so a letter typed there is text, not a command. */
export function isTypingTarget(target: unknown): boolean {
  if (typeof Element === 'undefined' || !(target instanceof Element)) return false;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return typingInputTypes.has(target.type);
  if (target instanceof HTMLElement && target.isContentEditable) return true;
  // A custom text box, or an element inside an editable region.
  return (
    target.closest('[contenteditable]:not([contenteditable="false"]), [role="textbox"]') !== null
  );
}

/** Anything open on top of the page that keys belong to while it is open. */
const overlaySelector =
  'dialog[open], [role="dialog"], [role="alertdialog"], [aria-modal="true"], [role="menu"], [role="listbox"]';

/** Whether a dialog, menu or list of choices is open: its keys are its own. */
export function hasOpenOverlay(root: ParentNode): boolean {
  return root.querySelector(overlaySelector) !== null;
}

/**
 * Reads key presses one at a time and says which shortcut, if any, they complete. `g` starts a
 * sequence that the next key, pressed within `timeoutMs`, completes; anything else ends it.
 */
export class ShortcutReader {
  private pendingSince: number | null = null;

  constructor(private readonly timeoutMs: number = sequenceTimeoutMs) {}

  /** Whether `g` was pressed and its second key may still come. */
  isPending(now: number): boolean {
    return this.pendingSince !== null && now - this.pendingSince <= this.timeoutMs;
  }

  /** The shortcut this key press completes, or null. `now` is in milliseconds. */
  read(key: string, now: number): ShortcutAction | null {
    const pending = this.isPending(now);
    this.pendingSince = null;
    if (pending) {
      const action = prefixedKeys.get(key);
      if (action) return action;
    }
    if (key === prefix) {
      this.pendingSince = now;
      return null;
    }
    return singleKeys.get(key) ?? null;
  }

  /** Forgets a started sequence (after focus moved into a field, or a dialog opened). */
  reset(): void {
    this.pendingSince = null;
  }
}
