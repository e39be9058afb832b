import { useEffect, useRef, type RefObject } from 'react';

/**
 * "Load more" for keyboard and screen reader users: once the next page is in, focus moves to the
 * first new item (matched by `selector` inside `container`), so they carry on where the list grew
 * instead of being left on a button that may have disappeared. Returns the function to call, with the
 * current item count, just before asking for the next page.
 */
export function useFocusAfterLoad(
  container: RefObject<HTMLElement | null>,
  selector: string,
  count: number,
  loading: boolean,
): (currentCount: number) => void {
  const from = useRef<number | null>(null);
  useEffect(() => {
    const index = from.current;
    if (index === null || loading) return;
    from.current = null;
    container.current?.querySelectorAll<HTMLElement>(selector)[index]?.focus();
  }, [container, selector, count, loading]);
  return (currentCount) => {
    from.current = currentCount;
  };
}
