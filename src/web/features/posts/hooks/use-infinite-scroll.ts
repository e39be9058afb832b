import { useEffect, useEffectEvent, type RefObject } from 'react';

/** Starts loading the next page this far before the end of the list comes into view. */
const lookAhead = '800px 0px';

/**
 * Calls `onReach` when `target` (a marker after the last item) nears the viewport. A new observer
 * per `enabled` change reports the marker's current position, so a page that still leaves the marker
 * in view asks for the next one at once; the visible Load more button remains the fallback.
 */
export function useInfiniteScroll(
  target: RefObject<Element | null>,
  enabled: boolean,
  onReach: () => void,
): void {
  const reach = useEffectEvent(onReach);
  useEffect(() => {
    const element = target.current;
    if (!enabled || !element || typeof IntersectionObserver !== 'function') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) reach();
      },
      { rootMargin: lookAhead },
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
    };
  }, [target, enabled]);
}
