import { useEffect, useEffectEvent } from 'react';
import {
  hasOpenOverlay,
  isForeignKeyPress,
  isTypingTarget,
  ShortcutReader,
  type ShortcutAction,
} from './keyboard-shortcuts.js';

/**
 * Listens for the shortcuts on the whole page. `run` is asked to carry one out and answers whether it
 * did (a signed-out visitor has no `n`); only a shortcut that ran keeps its key from the page.
 */
export function useKeyboardShortcuts(run: (action: ShortcutAction) => boolean): void {
  const perform = useEffectEvent(run);
  useEffect(() => {
    const reader = new ShortcutReader();
    const onKeyDown = (event: KeyboardEvent) => {
      if (isForeignKeyPress(event) || isTypingTarget(event.target) || hasOpenOverlay(document)) {
        reader.reset();
        return;
      }
      const action = reader.read(event.key, event.timeStamp || performance.now());
      if (action && perform(action)) event.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
    };
  }, []);
}
