import { useEffect, useRef, useState, type FocusEvent } from 'react';

/** How long a success notice stays on screen: long enough to be read twice at an easy pace. */
export const noticeLifetimeMs = 5_000;

/** Handlers for the element that holds the notice: while it is pointed at or focused, it stays. */
export interface SelfClearingHold {
  onPointerEnter: () => void;
  onPointerLeave: () => void;
  onFocus: () => void;
  onBlur: (event: FocusEvent<HTMLElement>) => void;
}

/**
 * Clears a success notice on its own after `lifetimeMs`, counted afresh for each new notice and
 * paused while the pointer rests on it or focus is inside it (WCAG 2.2.2: people who need longer
 * can keep it). `notice` is the state value shown (null when none): a new value starts a new count.
 * Errors do not use this; they stay until dismissed or fixed.
 */
export function useSelfClearing(
  notice: unknown,
  onClear: () => void,
  lifetimeMs: number = noticeLifetimeMs,
): SelfClearingHold {
  const [pointed, setPointed] = useState(false);
  const [focused, setFocused] = useState(false);
  const clear = useRef(onClear);
  useEffect(() => {
    clear.current = onClear;
  });

  const showing = notice !== null && notice !== undefined && notice !== false;
  // The element may vanish under the pointer or focus, so no leave event comes: start free next time.
  if (!showing && (pointed || focused)) {
    setPointed(false);
    setFocused(false);
  }
  const held = pointed || focused;

  useEffect(() => {
    if (!showing || held) return;
    const timer = setTimeout(() => {
      clear.current();
    }, lifetimeMs);
    return () => {
      clearTimeout(timer);
    };
  }, [notice, showing, held, lifetimeMs]);

  return {
    onPointerEnter: () => {
      setPointed(true);
    },
    onPointerLeave: () => {
      setPointed(false);
    },
    onFocus: () => {
      setFocused(true);
    },
    onBlur: (event) => {
      if (!(
        event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget)
      ))
        setFocused(false);
    },
  };
}
