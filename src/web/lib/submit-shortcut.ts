import type { KeyboardEvent } from 'react';

/** aria-keyshortcuts of a field that Ctrl+Enter (⌘+Enter on Apple devices) sends. */
export const submitKeyShortcuts = 'Control+Enter Meta+Enter';

/** Whether this device names the Command key (⌘) rather than Ctrl. */
function usesCommandKey(): boolean {
  if (typeof navigator === 'undefined') return false;
  return /Mac|iPhone|iPad|iPod/.test(navigator.userAgent);
}

/** "Ctrl+Enter" or "⌘+Enter", as this device's keyboard says it. */
export function submitShortcutLabel(): string {
  return usesCommandKey() ? '⌘+Enter' : 'Ctrl+Enter';
}

/** Whether a key press is Ctrl+Enter or ⌘+Enter (issue: notifications, search and the everyday things §4). */
export function isSubmitShortcut(
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'> & {
    nativeEvent?: { isComposing?: boolean };
  },
): boolean {
  return (
    event.key === 'Enter' &&
    (event.ctrlKey || event.metaKey) &&
    !event.altKey &&
    !event.shiftKey &&
    event.nativeEvent?.isComposing !== true
  );
}

/**
 * A field's keydown handler for Ctrl/⌘+Enter: sends its form (through requestSubmit, so the form's own
 * checks run) and returns true, or returns false for any other key. While the form is already sending
 * (`busy`), the shortcut is swallowed: it neither sends twice nor types a new line.
 */
export function submitOnShortcut(event: KeyboardEvent<HTMLTextAreaElement>, busy = false): boolean {
  if (!isSubmitShortcut(event)) return false;
  event.preventDefault();
  if (!busy) event.currentTarget.form?.requestSubmit();
  return true;
}
