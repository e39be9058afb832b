import { useCallback, useEffect, useLayoutEffect, useState, useSyncExternalStore } from 'react';
import { useBlocker, type Blocker, type BlockerFunction } from 'react-router';

/*
 * Leaving a page with unsaved changes asks first (issue: notifications, search and the everyday things
 * §4): in-app navigation through React Router's blocker, closing or reloading the tab through the
 * browser's own beforeunload prompt. A router keeps one blocker at a time, and a page may hold several
 * forms (a comment, a reply, an edit), so every form reports to one registry and only the first form
 * still open hosts the blocker, asking on behalf of all of them.
 */

/** What a form reports: whether it holds unsaved changes, and whether a draft keeps them. */
export interface UnsavedState {
  dirty: boolean;
  /** The changes are also kept as a draft on this device (lib/drafts.ts). */
  kept: boolean;
}

/** The forms on screen and their unsaved changes. */
export interface UnsavedRegistry {
  register: (id: symbol) => void;
  unregister: (id: symbol) => void;
  update: (id: symbol, state: UnsavedState) => void;
  /**
   * Marks a form clean at once for the blocker's next question, and tells listeners a task later: a form
   * settles right after sending, and a synchronous re-render then would flush the page's other pending
   * updates (a list that shows what was sent) before their data arrived.
   */
  settle: (id: symbol) => void;
  /** Whether any open form holds unsaved changes. */
  anyDirty: () => boolean;
  /** Whether every form with unsaved changes keeps them as a draft. */
  allKept: () => boolean;
  /** The form that hosts the blocker: the first one registered that is still open. */
  host: () => symbol | undefined;
  subscribe: (listener: () => void) => () => void;
}

/** A registry of its own (the app uses `unsavedChanges`; tests make fresh ones). */
export function createUnsavedRegistry(): UnsavedRegistry {
  const forms = new Map<symbol, UnsavedState>();
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of listeners) listener();
  };
  const dirtyForms = () => [...forms.values()].filter((state) => state.dirty);
  return {
    register(id) {
      if (forms.has(id)) return;
      forms.set(id, { dirty: false, kept: false });
      changed();
    },
    unregister(id) {
      if (forms.delete(id)) changed();
    },
    update(id, state) {
      const before = forms.get(id);
      if (!before || (before.dirty === state.dirty && before.kept === state.kept)) return;
      forms.set(id, state);
      changed();
    },
    settle(id) {
      const before = forms.get(id);
      if (!before?.dirty) return;
      forms.set(id, { dirty: false, kept: before.kept });
      setTimeout(changed, 0);
    },
    anyDirty: () => dirtyForms().length > 0,
    allKept: () => dirtyForms().every((state) => state.kept),
    host: () => forms.keys().next().value,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** The app's one registry. */
export const unsavedChanges = createUnsavedRegistry();

export interface LeavePromptHandle {
  /** This form hosts the page's blocker: it renders the prompt (components/ui/leave-prompt.tsx). */
  hosting: boolean;
  /**
   * Marks the changes as handled at once (sent, or cancelled on purpose), before the form re-renders,
   * so a navigation that follows straight away is not stopped.
   */
  settle: () => void;
}

/** A form reports its unsaved changes; see the module comment. */
export function useLeavePrompt(
  { dirty, kept }: UnsavedState,
  registry: UnsavedRegistry = unsavedChanges,
): LeavePromptHandle {
  const [id] = useState(() => Symbol('form'));
  useLayoutEffect(() => {
    registry.register(id);
    return () => {
      registry.unregister(id);
    };
  }, [registry, id]);
  // A layout effect: the registry is current before a click can start a navigation.
  useLayoutEffect(() => {
    registry.update(id, { dirty, kept });
  }, [registry, id, dirty, kept]);
  const hosting = useSyncExternalStore(
    registry.subscribe,
    () => registry.host() === id,
    () => false,
  );
  const settle = useCallback(() => {
    registry.settle(id);
  }, [registry, id]);
  return { hosting, settle };
}

/** Whether a navigation leaves the page: another path (a changed query or hash stays on it). */
export function leavesPage({
  currentLocation,
  nextLocation,
}: Parameters<BlockerFunction>[0]): boolean {
  return currentLocation.pathname !== nextLocation.pathname;
}

/**
 * The blocker itself, for the hosting form only: stops in-app navigation away from the page while any
 * form holds unsaved changes, and asks the browser to confirm a reload or a closed tab.
 */
export function useLeaveBlocker(registry: UnsavedRegistry = unsavedChanges): {
  blocker: Blocker;
  kept: boolean;
} {
  const shouldBlock = useCallback<BlockerFunction>(
    (navigation) => registry.anyDirty() && leavesPage(navigation),
    [registry],
  );
  const blocker = useBlocker(shouldBlock);
  const dirty = useSyncExternalStore(registry.subscribe, registry.anyDirty, () => false);
  const kept = useSyncExternalStore(registry.subscribe, registry.allKept, () => true);
  useEffect(() => {
    if (!dirty) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', ask);
    return () => {
      window.removeEventListener('beforeunload', ask);
    };
  }, [dirty]);
  return { blocker, kept };
}
